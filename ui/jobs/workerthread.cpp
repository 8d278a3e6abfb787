#include "jobs/workerthread.h"

#include <QThread>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ui {

WorkerThread::~WorkerThread() {
    cancel();
}

void WorkerThread::start(const QString &name, std::function<void(const std::atomic_bool &cancelled)> job) {
    cancel();
    m_cancelled.store(false);
    m_thread = QThread::create([this, job = std::move(job)] {
        ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), kNice); // Linux: this thread only
        job(m_cancelled);
    });
    m_thread->setObjectName(name);
    m_thread->start();
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
