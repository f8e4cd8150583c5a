/* tests/fuzz/fuzz_model_file.c -- libFuzzer target for the model-file reader.
 *
 * `make fuzz` builds this with clang -fsanitize=fuzzer,address,undefined and
 * runs it for FUZZ_SECONDS (default 600) from the seed corpus in
 * tests/fuzz/corpus/model_file/ (the example models and some broken ones),
 * with the format's keys as a dictionary (tests/fuzz/model_file.dict).
 *
 * For each input the reader must either return a description or an error,
 * never crash, leak or read out of bounds; and what it returns must keep its
 * promises, which the target checks (abort() on a broken promise, so the
 * fuzzer reports it as a crash with the input that caused it):
 *   - an error: no description, a status, and a message starting with the
 *     source name, with the line and column in it when they are set;
 *   - a description: at least the ground and one moving body, bodies[0] the
 *     ground, every body index in range, every unit vector unit, every
 *     number finite, every time function evaluable.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/model_file.h"

#define SOURCE "fuzz.yaml"

static void require(int ok)
{
    if (!ok)
        abort();
}

static void check_unit(const double v[3])
{
    require(fabs(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) - 1) <= 2 * MBD_MODEL_UNIT_TOL);
}

static void check_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        require(isfinite(v[i]));
}

/* evaluating is allowed to overflow (MBD_ENONFINITE), never to crash */
static void check_fn(const mbd_model_fn *f)
{
    static const double times[] = {0, 0.5, -3, 1e3};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        double v[3];
        int st = mbd_model_fn_eval(f, times[i], v);
        require(st == GSL_SUCCESS || st == MBD_ENONFINITE);
    }
}

static void check_body_index(const mbd_model_desc *m, size_t b)
{
    require(b < m->nbodies);
}

static void check_model(const mbd_model_desc *m)
{
    require(m->nbodies >= 2 && m->bodies[0].is_ground);
    require(strcmp(m->source, SOURCE) == 0 && m->name != NULL);
    check_finite(m->gravity, 3);
    for (size_t i = 0; i < m->nbodies; i++) {
        const mbd_model_body *b = &m->bodies[i];
        require(b->name != NULL && (i == 0) == (b->is_ground != 0));
        require(mbd_model_find_body(m, b->name) == (long)i);
        check_finite(b->p, 4);
        check_finite(b->A, 9);
        check_finite(b->omega_bar, 3);
        if (i > 0)
            require(b->mass > 0 && b->inertia[0] > 0);
    }
    for (size_t i = 0; i < m->njoints; i++) {
        const mbd_model_joint *j = &m->joints[i];
        check_body_index(m, j->body_i);
        check_body_index(m, j->body_j);
        require(j->body_i != j->body_j);
        require(mbd_model_joint_rows(j->type) > 0);
        if (j->type != MBD_MODEL_JOINT_SPHERICAL) {
            check_unit(j->axis_i);
            check_unit(j->axis_j);
        }
    }
    for (size_t i = 0; i < m->nconstraints; i++) {
        check_body_index(m, m->constraints[i].body_i);
        check_body_index(m, m->constraints[i].body_j);
        check_fn(&m->constraints[i].f);
    }
    for (size_t i = 0; i < m->nforces; i++)
        check_body_index(m, m->forces[i].body);
    for (size_t i = 0; i < m->ntorques; i++) {
        check_body_index(m, m->torques[i].body);
        check_fn(&m->torques[i].magnitude);
        if (m->torques[i].kind == MBD_MODEL_TORQUE_CALLBACK)
            require(m->torques[i].callback != NULL);
    }
    for (size_t i = 0; i < m->ntsdas; i++) {
        check_body_index(m, m->tsdas[i].body_i);
        check_body_index(m, m->tsdas[i].body_j);
        check_fn(&m->tsdas[i].actuator);
    }
    for (size_t i = 0; i < m->noutputs; i++)
        check_body_index(m, m->outputs[i].body);
    if (m->analysis.type != MBD_MODEL_ANALYSIS_NONE && m->analysis.type != MBD_MODEL_ANALYSIS_ASSEMBLY)
        require(m->analysis.t_end > m->analysis.t_start && m->analysis.h > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mbd_model_desc *m = (mbd_model_desc *)1;
    mbd_model_error e;
    int st = mbd_model_read_string((const char *)data, size, SOURCE, &m, &e);
    if (st != GSL_SUCCESS) {
        require(m == NULL);
        require(st == MBD_EINPUT || st == GSL_ENOMEM);
        require(e.status == st && strncmp(e.message, SOURCE ":", strlen(SOURCE) + 1) == 0);
        if (e.line > 0) {
            char prefix[64];
            snprintf(prefix, sizeof prefix, SOURCE ":%lu:%lu: ", e.line, e.column);
            require(strncmp(e.message, prefix, strlen(prefix)) == 0);
        }
        require(strchr(e.message, '\n') == NULL);
        return 0;
    }
    require(m != NULL && e.status == GSL_SUCCESS);
    check_model(m);
    mbd_model_desc_free(m);
    return 0;
}
