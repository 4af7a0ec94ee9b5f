/* valve: a handle with states, for the tests of values made by calls
 * (tests/test_call_values.py) and of the states explored
 * (tests/test_states_explored.py).  A valve is new, open, failed (its open
 * failed) or closed; valve_flush on a failed valve is a defect, and so is
 * valve_close on a closed one.  A tap is another handle of the same C type,
 * as a reader and a writer share one: tap_pour given a valve is the third. */
#ifndef VALVE_H
#define VALVE_H

typedef struct valve valve_t;
typedef struct gauge gauge_t;

/* a new valve, or NULL without memory */
valve_t *valve_new(void);
/* opens path for reading: 0, or -1 with errno (the valve is then failed);
 * -1 with EBUSY on a valve that is not new */
int valve_open(valve_t *v, const char *path);
/* 0 on an open valve; -1 on a new one (nothing to flush), -1 with EBADF on
 * a closed one */
int valve_flush(valve_t *v);
/* closes an open valve: 0; -1 with EBADF on a new or failed one */
int valve_close(valve_t *v);
/* a tap: pours its level, 0 then 1...; a valve_t * made otherwise */
valve_t *tap_new(void);
int tap_pour(valve_t *t);
/* a gauge: another kind of handle */
gauge_t *gauge_new(void);
int gauge_read(gauge_t *g);

#endif
