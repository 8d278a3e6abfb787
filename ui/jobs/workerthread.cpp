#include "jobs/workerthread.h"

#include <QThread>

#include <array>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ui {

WorkerThread::~WorkerThread() {
    cancel();
}

namespace {

// Whether `wanted` more descriptors can be opened now (they are closed again at once).
bool descriptorsToSpare(int wanted) {
    std::array<int, WorkerThread::kDescriptorHeadroom> fds{};
    int opened = 0;
    while (opened < wanted && opened < int(fds.size())) {
        const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            break;
        fds[size_t(opened++)] = fd;
    }
    for (int i = 0; i < opened; ++i)
        ::close(fds[size_t(i)]);
    return opened == wanted;
}

} // namespace

QString WorkerThread::cannotStartReason() {
    return QStringLiteral("Too many open files: no file descriptors left for a background job (close other "
                          "crawls or programs, or raise the limit with ulimit -n)");
}

bool WorkerThread::start(const QString &name, std::function<void(const std::atomic_bool &cancelled)> job) {
    cancel();
    if (!descriptorsToSpare(kDescriptorHeadroom))
        return false;
    m_cancelled.store(false);
    m_thread = QThread::create([this, job = std::move(job)] {
        ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), kNice); // Linux: this thread only
        job(m_cancelled);
    });
    m_thread->setObjectName(name);
    m_thread->start();
    return true;
}

void WorkerThread::cancel() {
    if (!m_thread)
        return;
    m_cancelled.store(true);
    finish();
}

void WorkerThread::finish() {
    if (!m_thread)
        return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

} // namespace ui
