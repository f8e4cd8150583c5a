/* An outside program built against an installed libmbd (tests/install/run.sh):
 * it uses the system interface and the finite-difference checker on a
 * pendulum in Cartesian coordinates, and prints one line. */
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <mbd/mbd.h>

static int mass(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *M)
{
    (void)s, (void)t, (void)q;
    gsl_matrix_set_identity(M);
    return GSL_SUCCESS;
}

static int force(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                 gsl_vector *F)
{
    (void)s, (void)t, (void)q, (void)qd;
    gsl_vector_set(F, 0, 0.0);
    gsl_vector_set(F, 1, -9.81);
    return GSL_SUCCESS;
}

static int constraint(const mbd_system *s, double t, const gsl_vector *q, gsl_vector *C)
{
    (void)s, (void)t;
    double x = gsl_vector_get(q, 0), y = gsl_vector_get(q, 1);
    gsl_vector_set(C, 0, x * x + y * y - 1.0);
    return GSL_SUCCESS;
}

static int jacobian(const mbd_system *s, double t, const gsl_vector *q, gsl_matrix *Cq)
{
    (void)s, (void)t;
    gsl_matrix_set(Cq, 0, 0, 2 * gsl_vector_get(q, 0));
    gsl_matrix_set(Cq, 0, 1, 2 * gsl_vector_get(q, 1));
    return GSL_SUCCESS;
}

static int gamma_fn(const mbd_system *s, double t, const gsl_vector *q, const gsl_vector *qd,
                    gsl_vector *g)
{
    (void)s, (void)t, (void)q;
    double u = gsl_vector_get(qd, 0), v = gsl_vector_get(qd, 1);
    gsl_vector_set(g, 0, -2 * (u * u + v * v));
    return GSL_SUCCESS;
}

int main(void)
{
    gsl_set_error_handler_off();
    mbd_system s = {.n = 2, .m = 1, .mass = mass, .force = force, .constraint = constraint,
                    .jacobian = jacobian, .gamma = gamma_fn};
    double q_[2] = {0.6, -0.8}, qd_[2] = {0.8, 0.6};
    gsl_vector_view q = gsl_vector_view_array(q_, 2), qd = gsl_vector_view_array(qd_, 2);
    mbd_fdcheck r;
    int st = mbd_system_check_derivatives(&s, 0.0, &q.vector, &qd.vector, 0.0, &r);
    if (st != GSL_SUCCESS || r.jacobian_rel > 1e-8 || r.gamma_rel > 1e-6) {
        printf("derivative check failed: %s\n", mbd_strerror(st));
        return 1;
    }
    printf("libmbd %s works: pendulum derivatives check (gamma rel. error %.1e)\n", MBD_VERSION,
           r.gamma_rel);
    return 0;
}
