#pragma once

#include "input/urlnormalizer.h"

#include <QString>
#include <QStringList>
#include <QUrl>

namespace crawl {

// One input URL on its way through the engine: a plain value held in a host queue until a slot frees.
// No request, reply, timer or QObject exists for it before it is dispatched.
struct Job {
    quint64 id = 0;
    qint64 lineNumber = 0;
    QString inputUrl;  // canonical input URL
    QString inputHost; // host key of the input URL
    QUrl currentUrl;   // the hop to request next (the input URL, or a redirect target)
    QString currentHost;
    int attempts = 0;                // attempts started (redirect hops are not attempts)
    int redirects = 0;               // hops followed in the current attempt
    bool continuingRedirect = false; // the next start is a hop, not a new attempt
    bool redoAttempt = false;        // the next start repeats an attempt that never reached the server
    QStringList chain;               // URLs requested in the current attempt
    QString warning;                 // of the current attempt (see CrawlResult::warning)
    qint64 notBeforeNs = 0;          // a retry waits for its backoff until then
    qint64 enqueuedNs = 0;           // when it first entered a queue (for "oldest queued" ages)
    qint64 firstStartNs = 0;         // steady clock, first request of the first attempt
    qint64 firstStartEpochMs = 0;
    int lastStatus = 0;       // of the last response (reported if the URL is cancelled while it waits)
    bool robotsFetch = false; // the /robots.txt request of inputHost's origin (RobotsGate), not an input URL
    QString robotsNote;       // --robots report: the rule that would have blocked a request of this URL

    // A URL entering the engine (read from the list, or queued again by a retry).
    static Job fromInput(quint64 id, qint64 lineNumber, const NormalizedUrl &url, qint64 enqueuedNs) {
        Job job;
        job.id = id;
        job.lineNumber = lineNumber;
        job.inputUrl = url.text;
        job.inputHost = url.hostKey;
        job.currentUrl = url.url;
        job.currentHost = url.hostKey;
        job.enqueuedNs = enqueuedNs;
        return job;
    }
};

} // namespace crawl
