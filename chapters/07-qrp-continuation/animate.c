/* chapters/07-qrp-continuation/animate.c -- chapter 07's mechanisms moving
 * (animation.h): one run from the command line, and the chapter's animation
 * of the 4-bar through the horizontal with the traditional basis beside the
 * continued one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_vector.h>

#include "mbd/animation.h"
#include "mbd/cli.h"
#include "mbd/planar.h"
#include "study.h"

/* What a drawing needs: the mechanism, the run whose generalised speed the
 * frames write, and per row the sign changes of that speed so far. */
typedef struct {
    const ch07_model *md;
    const ch07_run *run;
    size_t *flips;
} drawing;

/* The run's record as a history (animation.h draws histories). */
static int to_history(const ch07_run *r, mbd_history *h)
{
    int st = mbd_history_reset(h, r->n, r->rows, 0);
    for (size_t i = 0; i < r->rows && st == GSL_SUCCESS; i++)
        st = mbd_history_append(h, r->t[i], r->q + i * r->n, r->qd + i * r->n, r->c_norm[i], NAN,
                                r->E[i], NAN);
    return st;
}

/* flips[i]: rows up to i whose first generalised speed has the other sign
 * than the row before */
static int count_flips(drawing *d)
{
    const ch07_run *r = d->run;
    d->flips = malloc((r->rows ? r->rows : 1) * sizeof *d->flips);
    if (d->flips == NULL)
        return GSL_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < r->rows; i++) {
        if (i > 0 && r->v[i * CH07_MAX_K] * r->v[(i - 1) * CH07_MAX_K] < 0)
            n++;
        d->flips[i] = n;
    }
    return GSL_SUCCESS;
}

/* a bar of length L whose centre and angle are body b's in q; its ends */
static void bar(const ch07_model *md, mbd_scene *s, const gsl_vector *q, int b, double L,
                double end[4])
{
    double pose[3];
    mbd_planar_pose(md->pm, b, q, pose);
    const double c = 0.5 * L * cos(pose[2]), sn = 0.5 * L * sin(pose[2]);
    end[0] = pose[0] - c;
    end[1] = pose[1] - sn;
    end[2] = pose[0] + c;
    end[3] = pose[1] + sn;
    mbd_scene_line(s, MBD_SCENE_BODY, end[0], end[1], end[2], end[3]);
}

/* >> draw */
/* One state, to scale (metres, y up, gravity down): every bar from its own
 * centre and angle, the ground pivots, a joint at each crank's ends (a
 * coupler whose ends part from the cranks' tips shows the drift); the
 * first coupler's middle is traced (on the folded branch it leaves the
 * parallelogram's arc). The spatial pendulum is drawn in a fixed oblique
 * projection, z up. With a run, the frame writes its first generalised
 * speed, the columns of its basis and the speed's sign changes so far. */
static int draw_bars(void *ctx, double t, const double q[], const double qd[], mbd_scene *s)
{
    (void)qd;
    const drawing *d = ctx;
    const ch07_model *md = d->md;
    if (md->scenario == CH07_SPATIAL_PENDULUM) {
        const double X = q[0] + 0.35 * q[1], Y = q[2] + 0.25 * q[1], l = md->pend_l;
        mbd_scene_line(s, MBD_SCENE_GROUND, -0.2 * l, 0, 0.2 * l, 0);
        mbd_scene_line(s, MBD_SCENE_BODY, 0, 0, X, Y);
        mbd_scene_circle(s, MBD_SCENE_MASS, X, Y, 0.06 * l);
        mbd_scene_circle(s, MBD_SCENE_JOINT, 0, 0, 0.03 * l);
        mbd_scene_trace(s, X, Y);
        return GSL_SUCCESS;
    }
    const size_t n = ch07_system(md)->n;
    gsl_vector_const_view qv = gsl_vector_const_view_array(q, n);
    /* the labels' spacing: 8% of the mechanism's width (its cranks swing 1 m
     * to either side of the pivots) */
    const double width = md->copy_x[md->ncopies - 1] + (double)md->ncrank / (double)md->ncopies + 1.0;
    const double dy = 0.08 * width;
    double e[4];
    for (int i = 0; i < md->ncoupler; i++) {
        bar(md, s, &qv.vector, md->coupler[i], md->coupler_len[i], e);
        if (i == 0)
            mbd_scene_trace(s, 0.5 * (e[0] + e[2]), 0.5 * (e[1] + e[3]));
    }
    for (int i = 0; i < md->ncrank; i++) {
        bar(md, s, &qv.vector, md->crank[i], 1.0, e);
        mbd_scene_circle(s, MBD_SCENE_GROUND, e[0], e[1], 0.07);
        mbd_scene_circle(s, MBD_SCENE_JOINT, e[0], e[1], 0.04);
        mbd_scene_circle(s, MBD_SCENE_JOINT, e[2], e[3], 0.04);
    }
    if (d->run && d->run->rows > 0) {
        const size_t row = ch07_run_row(d->run, t);
        const double *v = d->run->v + row * CH07_MAX_K;
        char text[160];
        snprintf(text, sizeof text, "q_1' = %+.3f    basis: %zu column%s", v[0],
                 d->run->dof_used[row], d->run->dof_used[row] == 1 ? "" : "s");
        mbd_scene_label(s, md->copy_x[0] - 1.2, 1.0 + 3.0 * dy, text);
        snprintf(text, sizeof text, "sign changes of q_1' so far: %zu", d->flips[row]);
        mbd_scene_label(s, md->copy_x[0] - 1.2, 1.0 + 2.0 * dy, text);
    }
    return GSL_SUCCESS;
}
/* << draw */

static int animate(const char *path, const mbd_animation *a, const mbd_animation_panel *in,
                   drawing *d, size_t np, mbd_failure *fail)
{
    mbd_history h[2];
    mbd_animation_panel p[2];
    int st = GSL_SUCCESS;
    for (size_t j = 0; j < np; j++) {
        mbd_history_init(&h[j]);
        d[j].flips = NULL;
    }
    for (size_t j = 0; j < np && st == GSL_SUCCESS; j++) {
        st = to_history(d[j].run, &h[j]);
        if (st == GSL_SUCCESS)
            st = count_flips(&d[j]);
        p[j] = in[j];
        p[j].hist = &h[j];
        p[j].draw = draw_bars;
        p[j].ctx = &d[j];
    }
    if (st != GSL_SUCCESS)
        mbd_failure_set(fail, st, NAN, "out of memory for the animation");
    else
        st = mbd_animation_gif(path, a, p, np, NULL, fail);
    for (size_t j = 0; j < np; j++) {
        mbd_history_free(&h[j]);
        free(d[j].flips);
    }
    return st;
}

int ch07_animate_run(const char *path, const mbd_cli_common *opt, const ch07_model *md,
                     const ch07_spec *spec, const ch07_run *r, mbd_failure *fail)
{
    mbd_animation a;
    mbd_cli_animation(opt, "ch07-qrp-continuation", &a);
    a.xlabel = "x [m]";
    a.ylabel = md->scenario == CH07_SPATIAL_PENDULUM ? "z [m] (oblique: y into the page)"
                                                      : "y [m]";
    char title[256];
    snprintf(title, sizeof title, "%s, %s continuation, %s", md->name,
             ch07_continuation_name(spec->continuation), spec->ode.name);
    a.t0 = 0.0;
    a.t_end = spec->t_end;
    drawing d = {md, r, NULL};
    const mbd_animation_panel panel = {.title = title,
                                       .stop_note = mbd_status_word(r->status)};
    return animate(path, &a, &panel, &d, 1, fail);
}

/* >> animation */
/* The chapter's animation: Step 2's 4-bar released at 4 rad/s (RK4,
 * h = 1e-4 s, outputs at every step), the traditional basis beside the
 * continued one, through the first two horizontal instants (0.327 and
 * 0.756 s): 0 ... 0.8 s at a quarter of real time. The positions agree to
 * 1e-9 m; the generalised speed and its sign changes do not. */
int ch07_program_animate(void *ctx, const char *path, mbd_failure *fail)
{
    ch07_program *prog = ctx;
    ch07_study *s = prog->s;
    int st = ch07_study_compute(s, fail);
    if (st != GSL_SUCCESS)
        return st;
    ch07_model md;
    memset(&md, 0, sizeof md);
    ch07_model_data(&md, CH07_FOURBAR);
    if (ch07_model_build(&md) != GSL_SUCCESS) {
        ch07_model_free(&md);
        return mbd_failure_set(fail, GSL_ENOMEM, NAN, "the 4-bar could not be built");
    }
    mbd_animation a;
    mbd_cli_animation(prog->opt, "ch07-qrp-continuation", &a);
    a.xlabel = "x [m]";
    a.ylabel = "y [m]";
    if (!prog->opt->speed_given)
        a.speed = 0.25;
    a.t0 = 0.0;
    a.t_end = 0.8;
    a.title = "The 4-bar at 4 rad/s through the horizontal (RK4, h = 1e-4 s)";
    drawing d[2] = {{&md, &s->four_trad, NULL}, {&md, &s->four_cont, NULL}};
    const mbd_animation_panel panels[2] = {
        {.title = "traditional basis (no continuation)", .colour = "#d95f02"},
        {.title = "continued basis (procrustes)", .colour = "#1b9e77"},
    };
    st = animate(path, &a, panels, d, 2, fail);
    ch07_model_free(&md);
    return st;
}
/* << animation */
