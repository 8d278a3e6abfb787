#pragma once

#include <QString>

#include <atomic>
#include <functional>

class QThread;

namespace ui {

// One cancellable job at a time on a thread of its own, for a GUI-thread QObject that gets the job's
// results back as queued calls on itself. The job is always joined (cancel(), finish(), the destructor)
// before its owner goes away, so the owner outlives every call the job posts.
//
// The job runs at nice kNice, like a crawl's own threads: a million-row crawl file read on two busy cores
// (the loader and the summary reader at once) otherwise takes the core the window's thread is waiting for.
class WorkerThread {
public:
    static constexpr int kNice = 10;
    // A new thread's event dispatcher takes descriptors (GLib's wakeup), and GLib aborts the whole process
    // when it gets none; the jobs then open files of their own (a CSV, a crawl file and its WAL).
    static constexpr int kDescriptorHeadroom = 8;

    WorkerThread() = default;
    ~WorkerThread(); // cancels and joins
    WorkerThread(const WorkerThread &) = delete;
    WorkerThread &operator=(const WorkerThread &) = delete;

    // Runs `job` on a new thread called `name`; the job stops early once `cancelled` is set. A job still
    // running is cancelled and joined first. False (nothing runs) when the process has too few file
    // descriptors left to start a thread (see kDescriptorHeadroom): the caller reports cannotStartReason().
    bool start(const QString &name, std::function<void(const std::atomic_bool &cancelled)> job);
    static QString cannotStartReason();
    void cancel(); // sets `cancelled` and joins the job
    void finish(); // joins a job that has ended (from the last call it posted) and forgets it
    bool isRunning() const { return m_thread != nullptr; }

private:
    QThread *m_thread = nullptr;
    std::atomic_bool m_cancelled = false;
};

} // namespace ui
