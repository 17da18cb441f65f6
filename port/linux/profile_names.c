/*
 * port/linux/profile_names.c: the names of profile provider probes.
 *
 * "profile-" or "tick-", a decimal number, and an optional unit: ns nsec
 * us usec ms msec s sec m min h hour d day hz (none: hz, a rate).  As in
 * DTrace, intervals shorter than 200 us (faster than 5000 Hz) are not
 * offered.  Kept apart from the provider so it can be tested alone.
 */
#include <ctype.h>
#include <string.h>

#include "linux_impl.h"

#define PROF_INTERVAL_MIN (1000000000ULL / 5000)
#define PROF_PROFILE 0
#define PROF_TICK 1

static const struct {
	const char *name;
	uint64_t mult; /* nanoseconds per unit; 0: a rate in hertz */
} prof_units[] = {
	{"ns", 1},
	{"nsec", 1},
	{"us", 1000ULL},
	{"usec", 1000ULL},
	{"ms", 1000000ULL},
	{"msec", 1000000ULL},
	{"s", 1000000000ULL},
	{"sec", 1000000000ULL},
	{"m", 60ULL * 1000000000ULL},
	{"min", 60ULL * 1000000000ULL},
	{"h", 3600ULL * 1000000000ULL},
	{"hour", 3600ULL * 1000000000ULL},
	{"d", 86400ULL * 1000000000ULL},
	{"day", 86400ULL * 1000000000ULL},
	{"hz", 0},
	{"", 0},
};

/*
 * Parse "profile-97", "tick-1sec", ...: the kind and the interval in ns.
 * Returns false for a name that is not a valid profile probe.
 */
bool
linux_profile_parse(const char *name, int *kind, uint64_t *interval)
{
	const char *p;
	uint64_t val = 0;
	size_t i;

	if (strncmp(name, "profile-", 8) == 0) {
		*kind = PROF_PROFILE;
		p = name + 8;
	} else if (strncmp(name, "tick-", 5) == 0) {
		*kind = PROF_TICK;
		p = name + 5;
	} else {
		return false;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (val > (UINT64_MAX - 9) / 10)
			return false;
		val = val * 10 + (uint64_t)(*p - '0');
	}
	for (i = 0; i < sizeof(prof_units) / sizeof(prof_units[0]); i++)
		if (strcmp(p, prof_units[i].name) == 0)
			break;
	if (i == sizeof(prof_units) / sizeof(prof_units[0]) || val == 0)
		return false;
	if (prof_units[i].mult == 0) {
		val = 1000000000ULL / val;
	} else {
		if (val > UINT64_MAX / prof_units[i].mult)
			return false;
		val *= prof_units[i].mult;
	}
	if (val < PROF_INTERVAL_MIN)
		return false;
	*interval = val;
	return true;
}

