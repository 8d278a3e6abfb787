#pragma once

#include "jobs/workerthread.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace ui {

// Save Crawl As of an opened crawl (a file no engine has open): the store's step-wise copy (StoreBackup,
// the one the live crawl's journal thread uses) run on a worker thread, a number of pages per step, so a
// multi-GB file shows progress and can be cancelled; the window never waits on it. The copy is written
// beside the target and renamed over it only once complete, so a cancelled or failed copy leaves no file
// and an existing target as it was. One copy at a time.
class CrawlFileCopier : public QObject {
    Q_OBJECT
public:
    // 4 MiB of the store's 4 KiB pages: a step takes milliseconds, so Cancel is noticed at once.
    static constexpr int kDefaultPagesPerStep = 1'024;

    explicit CrawlFileCopier(QObject *parent = nullptr);
    ~CrawlFileCopier() override; // abandons a copy under way (its partial file removed), unreported

    // Pages per step and the least time between two steps (a test hook: 0 by default).
    void setStep(int pagesPerStep, int pauseMs);
    void copy(const QString &path, const QString &target);
    // Asks a copy under way to stop; copied(false, ...) follows once its partial file is gone.
    void cancel();
    // Stops a copy under way and waits for it (the owner is going away): nothing is reported.
    void abandon();
    bool isRunning() const { return m_worker.isRunning(); }
    QString source() const { return m_source; } // the file being copied; empty when none is

Q_SIGNALS:
    void progress(qint64 pagesCopied, qint64 pagesTotal);
    void copied(bool ok, const QString &target, const QString &error);

private:
    WorkerThread m_worker;
    quint64 m_job = 0;
    QString m_source; // of the copy under way
    QString m_target;
    std::shared_ptr<std::atomic_bool> m_stop; // that copy's Cancel (the worker's own flag joins)
    int m_pagesPerStep = kDefaultPagesPerStep;
    int m_pauseMs = 0;
};

} // namespace ui
