/* valve: a handle with states, for the tests of values made by calls
 * (tests/test_call_values.py).  A valve is new, open, or failed (its open
 * failed); valve_flush on a failed valve is the defect. */
#ifndef VALVE_H
#define VALVE_H

typedef struct valve valve_t;
typedef struct gauge gauge_t;

/* a new valve, or NULL without memory */
valve_t *valve_new(void);
/* opens path for reading: 0, or -1 with errno (the valve is then failed) */
int valve_open(valve_t *v, const char *path);
/* 0 on an open valve; -1 on a new one (nothing to flush) */
int valve_flush(valve_t *v);
/* a gauge: another kind of handle */
gauge_t *gauge_new(void);
int gauge_read(gauge_t *g);

#endif
