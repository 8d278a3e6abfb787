#pragma once
// A crawlscope process a cluster test starts (coordinator, worker, --cluster-set): its stderr is kept,
// because a failing test prints it and several tests assert what it says.
#include <QProcess>
#include <QStringList>
#include <QTest>

#include <memory>

namespace clustertest {

struct CrawlscopeProcess {
    std::unique_ptr<QProcess> process;
    QByteArray err;

    void pump() { err += process->readAllStandardError(); }
    // A test that fails half-way leaves no coordinator or worker running behind it.
    ~CrawlscopeProcess() {
        if (process && process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished(5000);
        }
    }
};

inline std::unique_ptr<CrawlscopeProcess> startCrawlscope(const QStringList &arguments) {
    auto proc = std::make_unique<CrawlscopeProcess>();
    proc->process = std::make_unique<QProcess>();
    proc->process->start(QStringLiteral(CRAWLSCOPE_BINARY), arguments);
    return proc;
}

// Waits for the process to exit, collecting its stderr meanwhile (a full pipe would stall it).
inline bool waitFinished(CrawlscopeProcess &proc, int timeoutMs) {
    const bool done = QTest::qWaitFor(
        [&] {
            proc.pump();
            return proc.process->state() == QProcess::NotRunning;
        },
        timeoutMs);
    proc.pump();
    return done;
}

} // namespace clustertest
