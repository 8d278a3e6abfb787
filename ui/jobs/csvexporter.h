#pragma once

#include "jobs/workerthread.h"
#include "models/resultstore.h"

#include <QObject>

#include <vector>

namespace ui {

// Writes results as the command line's CSV (crawl::ResultCsvWriter) on a worker thread, from a copy of
// the rows taken when the export starts, so the crawl and the views go on meanwhile. The file is a
// QSaveFile: a failed export leaves any previous file untouched and reports why.
class CsvExporter : public QObject {
    Q_OBJECT
public:
    explicit CsvExporter(QObject *parent = nullptr);
    ~CsvExporter() override; // cancels and joins a running export

    // `rows`: store rows to write in order; empty writes every row. False if an export is running.
    bool start(const QString &path, const ResultStore &store, std::vector<int> rows = {});
    void cancel();
    bool isRunning() const { return m_worker.isRunning(); }

Q_SIGNALS:
    void progress(qint64 written, qint64 total);
    void finished(bool ok, const QString &path, qint64 rows, const QString &error);

private:
    WorkerThread m_worker;
};

} // namespace ui
