/* chapters/04-scotch-yoke/animate.c -- the Scotch yoke moving (animation.h):
 * one run from the command line, and the chapter's animation of the two
 * readings of Table 3. */
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>

#include "mbd/animation.h"
#include "mbd/cli.h"
#include "study.h"

/* >> draw */
/* One state, to scale in inches (y up, gravity down): the rod, L long and b
 * wide, turning about the pin O; the yoke, a frame around its vertical slot
 * at x2 with its shaft to the right; the pin at the rod's tip, which should
 * sit on the slot's centre line (a drift shows as the pin off it); the
 * circle the tip should stay on; and the force on the yoke, written beside
 * its shaft. The tip is traced. */
static int draw_yoke(void *ctx, double t, const double q[], const double qd[], mbd_scene *s)
{
    (void)qd;
    const ch04_params *p = ctx;
    const double L = p->L, th = q[0], x2 = q[1];
    const double tx = L * cos(th), ty = L * sin(th);
    const double w = 0.06 * L, hgt = 1.15 * L, pin = 0.035 * L;
    mbd_scene_circle(s, MBD_SCENE_GUIDE, 0, 0, L);
    mbd_scene_circle(s, MBD_SCENE_GROUND, 0, 0, 1.6 * pin);
    const double frame[10] = {x2 - w, -hgt, x2 + w, -hgt, x2 + w, hgt, x2 - w, hgt, x2 - w, -hgt};
    mbd_scene_polyline(s, MBD_SCENE_BODY, 5, frame);
    mbd_scene_line(s, MBD_SCENE_BODY, x2 + w, 0, x2 + w + 0.7 * L, 0);
    mbd_scene_box(s, MBD_SCENE_MASS, 0.5 * tx, 0.5 * ty, 0.5 * L, fmax(0.5 * p->b, 0.01 * L), th);
    mbd_scene_circle(s, MBD_SCENE_JOINT, 0, 0, pin);
    mbd_scene_circle(s, MBD_SCENE_JOINT, tx, ty, pin);
    char force[64];
    snprintf(force, sizeof force, "F = %+.2f lbf", ch04_yoke_force(p, t));
    mbd_scene_label(s, x2 + w + 0.1 * L, -0.2 * L, force);
    mbd_scene_trace(s, tx, ty);
    return GSL_SUCCESS;
}
/* << draw */

static void labels(mbd_animation *a)
{
    a->xlabel = "x [in]";
    a->ylabel = "y [in]";
}

int ch04_animate_run(const char *path, const mbd_cli_common *opt, const ch04_params *p,
                     const ch04_config *c, const ch04_run *r, mbd_failure *fail)
{
    mbd_animation a;
    mbd_cli_animation(opt, "ch04-scotch-yoke", &a);
    labels(&a);
    char title[256];
    snprintf(title, sizeof title, "%s reading, %s%s, %s", p->name, c->method,
             c->project ? " --project" : "", c->ode.name);
    a.t0 = c->t0;
    a.t_end = c->t_end;
    const mbd_animation_panel panel = {.title = title, .hist = &r->h, .draw = draw_yoke,
                                       .ctx = (void *)p,
                                       .stop_note = mbd_status_word(r->res.status)};
    return mbd_animation_gif(path, &a, &panel, 1, NULL, fail);
}

/* >> animation */
/* The chapter's animation: the two readings of Table 3 side by side, each
 * the document's penalty method with Baumgarte under ode23 (the story's
 * runs, outputs every 1e-4 s), over the document's 4 s in real time: the
 * same mechanism and force, with masses 386 times apart. */
int ch04_program_animate(void *ctx, const char *path, mbd_failure *fail)
{
    ch04_program *prog = ctx;
    ch04_study *s = prog->s;
    int st = ch04_study_compute(s, fail);
    if (st != GSL_SUCCESS)
        return st;
    mbd_animation a;
    mbd_cli_animation(prog->opt, "ch04-scotch-yoke", &a);
    labels(&a);
    a.t0 = 0.0;
    a.t_end = CH04_T_END;
    a.title = "The two readings of Table 3: penalty-baumgarte, ode23";
    const ch04_run *tab = &s->run[CH04_TABLE][R_PEN_B][I_ODE23];
    const ch04_run *lis = &s->run[CH04_LISTING][R_PEN_B][I_ODE23];
    const mbd_animation_panel panels[2] = {
        {.title = "table: m1 = 0.5, m2 = 5 lbf s^2/in", .hist = &tab->h, .draw = draw_yoke,
         .ctx = (void *)&s->p[CH04_TABLE], .colour = "#1f4e79"},
        {.title = "listing: the same over g", .hist = &lis->h, .draw = draw_yoke,
         .ctx = (void *)&s->p[CH04_LISTING], .colour = "#d95f02"},
    };
    return mbd_animation_gif(path, &a, panels, 2, NULL, fail);
}
/* << animation */
