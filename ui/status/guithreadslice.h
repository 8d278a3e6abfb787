#pragma once

#include <QtGlobal>

namespace ui {

// Asks the kernel to treat the calling thread as latency-sensitive: a short scheduler slice (Linux 6.12+
// EEVDF, `sched_setattr` with `sched_runtime` on a normal thread; no privilege needed). A thread with a
// short slice gets an earlier virtual deadline, so when it wakes (a paint, a timer, input) it is picked
// ahead of the crawl's threads and of other processes' long slices instead of waiting a few of their
// slices; its share of the CPU is unchanged. Older kernels accept the call and ignore the slice.
// Returns false when the call failed (the thread keeps its default slice).
bool requestShortSchedulerSlice(qint64 sliceUs);

// The calling thread's slice in microseconds as the kernel reports it (/proc/thread-self/sched), -1 when
// unknown.
qint64 currentSchedulerSliceUs();

} // namespace ui
