#include "status/guithreadslice.h"

#include <QByteArray>
#include <QFile>
#include <QList>

#ifdef Q_OS_LINUX
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace ui {

namespace {
// The kernel's struct sched_attr, first version (48 bytes, a stable ABI); <linux/sched/types.h> cannot be
// included together with glibc's <sched.h>.
struct SchedAttr {
    quint32 size;
    quint32 policy;
    quint64 flags;
    qint32 nice;
    quint32 priority;
    quint64 runtime;
    quint64 deadline;
    quint64 period;
};
static_assert(sizeof(SchedAttr) == 48);
} // namespace

bool requestShortSchedulerSlice(qint64 sliceUs) {
#if defined(Q_OS_LINUX) && defined(SYS_sched_setattr)
    SchedAttr attr{};
    attr.size = sizeof(attr);
    attr.policy = SCHED_OTHER;
    // sched_setattr sets the nice value too: keep the thread's own.
    const int tid = int(::syscall(SYS_gettid));
    attr.nice = ::getpriority(PRIO_PROCESS, id_t(tid));
    attr.runtime = quint64(sliceUs) * 1000; // the kernel clamps it to 0.1-100 ms
    return ::syscall(SYS_sched_setattr, tid, &attr, 0) == 0;
#else
    Q_UNUSED(sliceUs);
    return false;
#endif
}

qint64 currentSchedulerSliceUs() {
    QFile sched(QStringLiteral("/proc/thread-self/sched"));
    if (!sched.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : sched.readAll().split('\n')) {
        if (line.startsWith("se.slice")) {
            const qsizetype colon = line.indexOf(':');
            bool ok = false;
            const qint64 ns = line.mid(colon + 1).trimmed().toLongLong(&ok);
            return ok && colon > 0 ? ns / 1000 : -1;
        }
    }
    return -1;
}

} // namespace ui
