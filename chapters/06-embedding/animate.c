/* chapters/06-embedding/animate.c -- chapter 06's mechanisms moving
 * (animation.h): one run from the command line, and the chapter's animation
 * of the slider's x4 forced independent, x4 at the start and re-selected at
 * the dead centre, and the set chosen by pivoting. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "mbd/animation.h"
#include "mbd/cli.h"
#include "study.h"

/* What a drawing needs: the mechanism, and the run whose independent set
 * the frames name (NULL: none named, an augmented run). */
typedef struct {
    const ch06_model *md;
    const ch06_run *run;
} drawing;

/* a uniform rod whose centre is at (x, y), turned by th; returns its ends */
static void rod(mbd_scene *s, double x, double y, double th, double l, double end[4])
{
    const double c = 0.5 * l * cos(th), sn = 0.5 * l * sin(th);
    end[0] = x - c;
    end[1] = y - sn;
    end[2] = x + c;
    end[3] = y + sn;
    mbd_scene_line(s, MBD_SCENE_BODY, end[0], end[1], end[2], end[3]);
}

/* The embedding's independent coordinates at time t: the set it started
 * with, changed by each re-selection made by then. */
static void independent_at(const ch06_run *r, double t, size_t set[4])
{
    memcpy(set, r->res.independent0, sizeof r->res.independent0);
    for (size_t e = 0; e < r->res.n_events && r->res.events[e].t <= t; e++)
        for (size_t j = 0; j < r->res.n_independent; j++)
            if (set[j] == r->res.events[e].left) {
                set[j] = r->res.events[e].joined;
                break;
            }
}

/* >> draw */
/* One state, to scale (metres, y up, gravity down), each body from its own
 * three coordinates (x, y, theta) of its reference point: the rods as lines
 * from end to end, the slider as a block on its rail, the ground pin at the
 * origin, and a joint at each body's pinned end (a drift shows as two
 * bodies' ends apart). The end of the last rod is traced. For an embedded
 * run the frame names the coordinates it integrates at that time. */
static int draw_mechanism(void *ctx, double t, const double q[], const double qd[],
                          mbd_scene *s)
{
    (void)qd;
    const drawing *d = ctx;
    const ch06_model *md = d->md;
    double a[4], b[4], reach = 1.0, tx = 0.0, ty = 0.0;
    switch (md->scenario) {
    case CH06_PENDULUM:
        reach = md->pend.l;
        rod(s, q[0], q[1], q[2], md->pend.l, a);
        tx = a[2];
        ty = a[3];
        break;
    case CH06_SLIDER_CRANK: {
        const ch06_slider_data *c = &md->slider;
        reach = c->l2 + c->l3;
        mbd_scene_line(s, MBD_SCENE_GROUND, c->l3 - 1.4 * c->l2, -0.09 * reach,
                       reach + 0.4 * c->l2, -0.09 * reach);
        mbd_scene_box(s, MBD_SCENE_MASS, q[6], q[7], 0.09 * reach, 0.055 * reach, q[8]);
        rod(s, q[0], q[1], q[2], c->l2, a);
        rod(s, q[3], q[4], q[5], c->l3, b);
        mbd_scene_circle(s, MBD_SCENE_JOINT, a[2], a[3], 0.025 * reach);
        mbd_scene_circle(s, MBD_SCENE_JOINT, q[6], q[7], 0.025 * reach);
        tx = a[2];
        ty = a[3];
        break;
    }
    default:   /* CH06_DOUBLE_PENDULUM */
        reach = md->dbl.l1 + md->dbl.l2;
        rod(s, q[0], q[1], q[2], md->dbl.l1, a);
        rod(s, q[3], q[4], q[5], md->dbl.l2, b);
        mbd_scene_circle(s, MBD_SCENE_JOINT, a[2], a[3], 0.025 * reach);
        tx = b[2];
        ty = b[3];
        break;
    }
    mbd_scene_circle(s, MBD_SCENE_GROUND, 0, 0, 0.04 * reach);
    mbd_scene_circle(s, MBD_SCENE_JOINT, 0, 0, 0.025 * reach);
    mbd_scene_trace(s, tx, ty);
    if (d->run && d->run->res.n_independent > 0) {
        size_t set[4];
        independent_at(d->run, t, set);
        const char *const *names = ch06_names(md);
        char text[128] = "independent:";
        for (size_t j = 0; j < d->run->res.n_independent; j++) {
            const size_t used = strlen(text);
            snprintf(text + used, sizeof text - used, " %s", names[set[j]]);
        }
        mbd_scene_label(s, -0.35 * reach, 0.45 * reach, text);
    }
    return GSL_SUCCESS;
}
/* << draw */

static void labels(mbd_animation *a)
{
    a->xlabel = "x [m]";
    a->ylabel = "y [m]";
}

int ch06_animate_run(const char *path, const mbd_cli_common *opt, const ch06_model *md,
                     const ch06_spec *spec, const ch06_run *r, mbd_failure *fail)
{
    mbd_animation a;
    mbd_cli_animation(opt, "ch06-embedding", &a);
    labels(&a);
    char title[256];
    snprintf(title, sizeof title, "%s, %s, %s", md->name, spec->run.method, spec->run.ode.name);
    a.t0 = spec->run.t0;
    a.t_end = spec->run.t_end;
    const drawing d = {md, strcmp(spec->run.method, "embedding") == 0 ? r : NULL};
    const mbd_animation_panel panel = {.title = title, .hist = &r->h, .draw = draw_mechanism,
                                       .ctx = (void *)&d,
                                       .stop_note = mbd_status_word(r->res.status)};
    return mbd_animation_gif(path, &a, &panel, 1, NULL, fail);
}

/* >> animation */
/* The chapter's animation: three of Step 6's embedded runs of the
 * slider-crank (RK4, h = 1e-3, outputs every 0.01 s), each frame naming the
 * coordinate the run integrates; 0 ... 1 s at a quarter of real time. The
 * slider's x4 forced independent stops as the crank nears its dead centre,
 * where x4 no longer fixes the crank; started with x4 and re-selected (ratio
 * 0.1) the set switches to theta2 before it and goes on; pivoting chooses
 * theta2 from the start. */
int ch06_program_animate(void *ctx, const char *path, mbd_failure *fail)
{
    ch06_program *prog = ctx;
    ch06_study *s = prog->s;
    int st = ch06_study_compute(s, fail);
    if (st != GSL_SUCCESS)
        return st;
    mbd_animation a;
    mbd_cli_animation(prog->opt, "ch06-embedding", &a);
    labels(&a);
    if (!prog->opt->speed_given)
        a.speed = 0.25;
    a.t0 = 0.0;
    a.t_end = 1.0;
    a.title = "The slider-crank embedded (RK4, h = 1e-3): which coordinate is independent";
    const ch06_model *md = &s->md[CH06_SLIDER_CRANK];
    const ch06_run *sw = &s->switched[CH06_RATIO_SHOWN];
    const drawing forced = {md, &s->forced}, switched = {md, sw}, automatic = {md, &s->automatic};
    char title[96];
    snprintf(title, sizeof title, "x4 at the start, re-selected (ratio %g)",
             ch06_ratios[CH06_RATIO_SHOWN]);
    const mbd_animation_panel panels[3] = {
        {.title = "x4 held (--independent x4)", .hist = &s->forced.h, .draw = draw_mechanism,
         .ctx = (void *)&forced, .colour = "#d95f02",
         .stop_note = "C_{q_d} singular"},
        {.title = title, .hist = &sw->h, .draw = draw_mechanism, .ctx = (void *)&switched,
         .colour = "#7570b3"},
        {.title = "chosen by pivoting", .hist = &s->automatic.h, .draw = draw_mechanism,
         .ctx = (void *)&automatic, .colour = "#1b9e77"},
    };
    return mbd_animation_gif(path, &a, panels, 3, NULL, fail);
}
/* << animation */
