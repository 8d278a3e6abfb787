#pragma once

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>

#include <functional>

namespace ui {

// One crawl file as the window lists it (Manage Crawls, the crash-resume offer), read without taking
// the crawl over: the store is opened read-only, and a crawl another process runs reports `busy`.
struct CrawlFileInfo {
    // Settings the window keeps in its crawl files, beside the engine's own.
    static inline const QString kListName = QStringLiteral("ui.list_name");
    static inline const QString kOwnerPid = QStringLiteral("ui.owner_pid"); // the window process crawling it
    static inline const QString kState = QStringLiteral("ui.state");        // see the constants below
    static inline const QString kRunning = QStringLiteral("running"); // set at start; left as is by a crash
    static inline const QString kStopped = QStringLiteral("stopped");
    static inline const QString kFinished = QStringLiteral("finished");
    static inline const QString kDiscarded = QStringLiteral("discarded"); // the user declined to resume it

    QString path;
    QString listName;
    QDateTime startedAt; // invalid if unknown
    qint64 done = 0;     // rows with a committed outcome
    qint64 total = 0;    // rows the crawl will have (once its whole list is stored)
    bool inputComplete = false;
    qint64 unfinished = 0; // queued, waiting for a retry or in flight
    qint64 sizeBytes = 0;  // the file and its write-ahead log
    qint64 ownerPid = 0;
    QString state;
    bool busy = false; // another process holds it open
    QString error;     // why it could not be read (busy, foreign, damaged...)

    bool isUnfinished() const { return unfinished > 0 || !inputComplete; }

    // `busyWaitMs`: StoreOptions::busyWaitMs (0 on the GUI thread: a quick look, Busy at once).
    static CrawlFileInfo read(const QString &path, int busyWaitMs = 0);
    // The crawl files in `folder`, newest first.
    static QList<CrawlFileInfo> scan(const QString &folder);
    // A crawl the window was running when its process died: unfinished, still marked running, not held
    // by a live process. What a new window offers to resume.
    static bool wasInterrupted(const CrawlFileInfo &info, const std::function<bool(qint64)> &isAlive);
    // Marks a crawl as declined (so it is not offered again) or sets other window settings; false with
    // *error when the file cannot be written (another process holds it).
    static bool writeSettings(const QString &path, const QMap<QString, QString> &values, QString *error);
    // Deletes a crawl file with its write-ahead log; refuses one another process holds open.
    static bool remove(const QString &path, QString *error);
};

} // namespace ui
