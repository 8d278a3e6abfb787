#include "jobs/csvexporter.h"

#include "output/csvwriter.h"

#include <QElapsedTimer>
#include <QSaveFile>

namespace ui {

CsvExporter::CsvExporter(QObject *parent)
    : QObject(parent) {}

CsvExporter::~CsvExporter() {
    cancel(); // here, not in the member's destructor: queued calls must find a whole CsvExporter
}

void CsvExporter::cancel() {
    m_worker.cancel();
}

bool CsvExporter::start(const QString &path, const ResultStore &store, std::vector<int> rows) {
    if (m_worker.isRunning())
        return false;
    // The copy is taken here, in the GUI thread: the live store keeps growing while the worker writes.
    auto snapshot = std::make_shared<const ResultStore>(store);
    auto order = std::make_shared<const std::vector<int>>(std::move(rows));

    const bool started = m_worker.start(
        QStringLiteral("csv export"), [this, path, snapshot, order](const std::atomic_bool &cancelled) {
            const qint64 total = order->empty() ? snapshot->size() : qint64(order->size());
            QString error;
            qint64 written = 0;
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly)) {
                error = tr("Cannot open %1 for writing: %2").arg(path, file.errorString());
            } else {
                crawl::ResultCsvWriter writer(&file);
                bool ok = writer.writeHeader();
                QElapsedTimer sinceReport;
                sinceReport.start();
                for (qint64 i = 0; ok && i < total; ++i) {
                    if (cancelled.load()) {
                        error = tr("Export cancelled");
                        ok = false;
                        break;
                    }
                    const qsizetype row = order->empty() ? qsizetype(i) : qsizetype((*order)[size_t(i)]);
                    ok = writer.write(snapshot->result(row));
                    written = writer.rowsWritten();
                    if (sinceReport.elapsed() >= 100) {
                        sinceReport.restart();
                        QMetaObject::invokeMethod(
                            this, [this, written, total] { Q_EMIT progress(written, total); },
                            Qt::QueuedConnection);
                    }
                }
                // A row or text that could not be read back came out blank: not an export of the data.
                if (ok && snapshot->unreadableValues() > 0) {
                    ok = false;
                    error = tr("Cannot export to %1: rows, URLs or titles could not be read back (%2 failed "
                               "reads: %3)")
                                .arg(path)
                                .arg(snapshot->unreadableValues())
                                .arg(snapshot->spillError());
                }
                if (ok)
                    ok = writer.flush();
                if (!ok && error.isEmpty())
                    error = writer.errorString();
                if (ok && !file.commit())
                    error = tr("Cannot save %1: %2").arg(path, file.errorString());
                if (!error.isEmpty())
                    file.cancelWriting();
            }
            if (cancelled.load())
                return; // cancelled by the destructor: nobody listens
            QMetaObject::invokeMethod(
                this,
                [this, path, written, error] {
                    m_worker.finish();
                    Q_EMIT finished(error.isEmpty(), path, written, error);
                },
                Qt::QueuedConnection);
        });
    if (!started) { // no thread: nothing written; say why, as the export would have
        QMetaObject::invokeMethod(
            this, [this, path] { Q_EMIT finished(false, path, 0, WorkerThread::cannotStartReason()); },
            Qt::QueuedConnection);
    }
    return true;
}

} // namespace ui
