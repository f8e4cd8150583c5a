/* chapters/03-pendulum/animate.c -- the pendulum moving (animation.h): one
 * run from the command line, and the chapter's animation of the printed
 * Baumgarte sign beside the stable one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/animation.h"
#include "mbd/cli.h"
#include "study.h"

/* >> draw */
/* One state of the pendulum, drawn with "down" (+y in the model) down on
 * the screen: the circle the bob should stay on, the pivot, the rod, the bob;
 * the bob's path is traced. The model's out-of-plane z is not drawn (it
 * stays at round-off in every method). */
static int draw_pendulum(void *ctx, double t, const double q[], const double qd[], mbd_scene *s)
{
    (void)t;
    (void)qd;
    const ch03_pendulum *p = ctx;
    const double L = p->L, bx = q[0], by = -q[1];
    const double base[6] = {0, 0, -0.07 * L, 0.1 * L, 0.07 * L, 0.1 * L};
    mbd_scene_circle(s, MBD_SCENE_GUIDE, 0, 0, L);
    mbd_scene_polygon(s, MBD_SCENE_GROUND, 3, base);
    mbd_scene_line(s, MBD_SCENE_GROUND, -0.14 * L, 0.1 * L, 0.14 * L, 0.1 * L);
    mbd_scene_line(s, MBD_SCENE_BODY, 0, 0, bx, by);
    mbd_scene_circle(s, MBD_SCENE_MASS, bx, by, 0.05 * L);
    mbd_scene_circle(s, MBD_SCENE_JOINT, 0, 0, 0.025 * L);
    mbd_scene_trace(s, bx, by);
    return GSL_SUCCESS;
}
/* << draw */

static void labels(mbd_animation *a)
{
    a->xlabel = "x [m]";
    a->ylabel = "-y [m] (gravity down)";
    a->violation = "|C|";
}

int ch03_animate_run(const char *path, const mbd_cli_common *opt, const ch03_spec *spec,
                     const ch03_result *r, const mbd_history *h, mbd_failure *fail)
{
    ch03_pendulum p;
    ch03_pendulum_document(&p);
    mbd_animation a;
    mbd_cli_animation(opt, "ch03-pendulum", &a);
    labels(&a);
    char title[256], note[64];
    /* the method, its integrator and the parameters it uses */
    int n = snprintf(title, sizeof title, "%s, %s", spec->method,
                     r->integrator ? r->integrator : spec->ode.name);
    if (n > 0 && (size_t)n < sizeof title && ch03_method_uses_mu(spec->method))
        n += snprintf(title + n, sizeof title - (size_t)n, ", mu = %g", spec->mu);
    if (n > 0 && (size_t)n < sizeof title && ch03_method_uses_baumgarte(spec->method))
        snprintf(title + n, sizeof title - (size_t)n, ", alpha = %g, beta = %g", spec->alpha,
                 spec->beta);
    snprintf(note, sizeof note, "%s", mbd_status_word(r->status));
    /* the span the options asked for (a run that stopped early keeps its
     * last state to the end, marked) */
    a.t0 = spec->t0;
    a.t_end = spec->t_end;
    const mbd_animation_panel panel = {.title = title, .hist = h, .draw = draw_pendulum,
                                       .ctx = &p, .stop_note = note};
    return mbd_animation_gif(path, &a, &panel, 1, NULL, fail);
}

/* >> animation */
/* The chapter's animation: the stable sign and the printed one side by side
 * (the story's runs under ode23, mu = 1e5, alpha = beta = 20, outputs every
 * 1e-3 s), in slow motion over the first half second, in which the printed
 * sign's |C| grows as e^{48.3 t} until the run is stopped at |C| > 1. */
int ch03_program_animate(void *ctx, const char *path, mbd_failure *fail)
{
    ch03_program *prog = ctx;
    ch03_study *S = prog->S;
    int st = ch03_compute(S);
    if (st != GSL_SUCCESS)
        return mbd_failure_set(fail, st, NAN, "the story's computations failed: %s",
                               mbd_strerror(st));
    mbd_animation a;
    mbd_cli_animation(prog->opt, "ch03-pendulum", &a);
    labels(&a);
    if (!prog->opt->speed_given)
        a.speed = 0.1;
    a.t0 = 0.0;
    a.t_end = 0.45;
    a.title = "Baumgarte's sign, static penalty mu = 1e5, ode23 (slow motion)";
    const mbd_animation_panel panels[2] = {
        {.title = "stable sign (eq. 72')", .hist = &S->h23[M_PEN_B], .draw = draw_pendulum,
         .ctx = &S->p},
        {.title = "printed sign (eq. 72)", .hist = &S->h23[M_PRINTED], .draw = draw_pendulum,
         .ctx = &S->p, .colour = "#c0392b", .stop_note = "|C| > 1"},
    };
    return mbd_animation_gif(path, &a, panels, 2, NULL, fail);
}
/* << animation */
