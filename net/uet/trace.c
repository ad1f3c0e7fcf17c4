// SPDX-License-Identifier: GPL-2.0
/* The one instance of the tracepoints declared in trace.h. */
#define CREATE_TRACE_POINTS
#include <trace/events/uet.h>
