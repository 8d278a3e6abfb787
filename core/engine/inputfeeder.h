#pragma once

#include "engine/enginecontext.h"
#include "input/inputsource.h"
#include "input/urllistreader.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

namespace crawl {

class FrontierService;

// Streams the input list on its own thread: normalizes each line and hands the lines, in order, to the
// frontier, which stores them (deduplicating by the store's unique key) and decides when they are
// fetched. It reads ahead only while fewer than FrontierService::kMaxPendingLines wait to be stored, so
// a 10-million-line list never sits in memory, and the first lines start fetching at once.
class InputFeeder : public QObject {
    Q_OBJECT
public:
    // `skipThroughLine`: a resumed crawl already stored the lines up to it.
    InputFeeder(EngineContext *context, FrontierService *frontier, std::unique_ptr<QIODevice> device,
                InputSource::Kind kind, QString path, qint64 skipThroughLine);
    ~InputFeeder() override;

    void begin();    // in the feeder thread
    void abandon();  // thread-safe: stop reading now, emit nothing more (engine teardown)
    void readSome(); // in the feeder thread: reads the next slice (after a stop: the rest, as cancelled)

    // Read by the façade (any thread).
    std::atomic<bool> reachedEnd{false};
    std::atomic<qint64> estimatedRows{-1}; // quick pre-count of non-blank lines; -1 when unknown (stdin)

private:
    void estimate();

    void end(const QString &readError);

    EngineContext *m_context;
    FrontierService *m_frontier;
    std::unique_ptr<QIODevice> m_device;
    InputSource::Kind m_kind;
    QString m_path;
    std::unique_ptr<UrlListReader> m_reader;
    qint64 m_skipThroughLine = 0;
    std::atomic<bool> m_abandoned{false};
    QTimer m_backpressureTimer;
};

} // namespace crawl
