#include "engine/inputfeeder.h"

#include "frontier/frontierservice.h"
#include "input/streamdevice.h"

#include <QBuffer>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

namespace crawl {

namespace {
constexpr int kLinesPerSlice = 2'000; // then yield so stop and abandon requests get through
constexpr int kBackpressureRetryMs = 10;

// Counts non-blank, non-comment lines without parsing them: a cheap first estimate of the total.
qint64 countCandidateLines(QIODevice *device) {
    qint64 count = 0;
    bool lineHasContent = false;
    bool lineStarted = false;
    bool isComment = false;
    char buffer[1 << 16];
    while (true) {
        const qint64 n = device->read(buffer, sizeof buffer);
        if (n <= 0)
            break;
        for (qint64 i = 0; i < n; ++i) {
            const char c = buffer[i];
            if (c == '\n') {
                if (lineHasContent && !isComment)
                    ++count;
                lineHasContent = lineStarted = isComment = false;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                if (!lineStarted)
                    isComment = c == '#';
                lineStarted = true;
                lineHasContent = true;
            }
        }
    }
    if (lineHasContent && !isComment)
        ++count;
    return count;
}
} // namespace

InputFeeder::InputFeeder(EngineContext *context, FrontierService *frontier, std::unique_ptr<QIODevice> device,
                         InputSource::Kind kind, QString path, qint64 skipThroughLine)
    : m_context(context)
    , m_frontier(frontier)
    , m_device(std::move(device))
    , m_kind(kind)
    , m_path(std::move(path))
    , m_skipThroughLine(skipThroughLine)
    , m_backpressureTimer(this) // parented, so it moves to the feeder thread with us
{
    m_backpressureTimer.setSingleShot(true);
    m_backpressureTimer.setInterval(kBackpressureRetryMs);
    connect(&m_backpressureTimer, &QTimer::timeout, this, &InputFeeder::readSome);
}

InputFeeder::~InputFeeder() = default;

void InputFeeder::abandon() {
    m_abandoned.store(true);
}

void InputFeeder::begin() {
    estimate();
    m_reader = std::make_unique<UrlListReader>(m_device.get());
    if (auto *in = qobject_cast<StreamDevice *>(m_device.get())) {
        // Never block in read(): a stop must always reach this thread, however idle the pipe.
        connect(in, &QIODevice::readyRead, this, &InputFeeder::readSome);
        in->startReading();
    }
    readSome();
}

void InputFeeder::estimate() {
    if (m_kind == InputSource::Kind::File && QFileInfo(m_path).isFile()) { // a FIFO cannot be read twice
        QFile again(m_path);
        if (again.open(QIODevice::ReadOnly))
            estimatedRows.store(countCandidateLines(&again));
    } else if (auto *buffer = qobject_cast<QBuffer *>(m_device.get())) {
        QBuffer copy;
        copy.setData(buffer->data());
        copy.open(QIODevice::ReadOnly);
        estimatedRows.store(countCandidateLines(&copy));
    }
}

void InputFeeder::end(const QString &readError) {
    reachedEnd.store(true);
    m_frontier->inputEnded(readError);
}

void InputFeeder::readSome() {
    if (m_abandoned.load() || reachedEnd.load())
        return;
    const bool stopping = m_context->stopping.load();
    // Reading the rest of a stream after a stop could wait forever; a file is read to its end so every
    // line still gets its (cancelled) row.
    if (stopping && (m_kind == InputSource::Kind::Stdin || qobject_cast<StreamDevice *>(m_device.get()))) {
        end({});
        return;
    }
    if (m_frontier->pendingLines.load(std::memory_order_relaxed) >= FrontierService::kMaxPendingLines) {
        m_backpressureTimer.start();
        return;
    }
    QList<StoreInputLine> lines;
    lines.reserve(kLinesPerSlice);
    bool finished = false;
    QString readError;
    for (int i = 0; i < kLinesPerSlice; ++i) {
        std::optional<InputLine> line = m_reader->next();
        if (!line) {
            if (m_reader->waitingForData())
                break; // the device's readyRead() calls again
            if (!m_reader->errorString().isEmpty())
                readError =
                    (m_reader->linesRead() > 0 ? QStringLiteral("after line %1").arg(m_reader->linesRead())
                                               : QStringLiteral("before the first line")) +
                    QStringLiteral(": ") + m_reader->errorString();
            finished = true;
            break;
        }
        if (line->lineNumber <= m_skipThroughLine)
            continue; // stored before the crawl was interrupted
        lines.append(storeInputLine(*line));
    }
    if (!lines.isEmpty())
        m_frontier->addLines(std::move(lines));
    if (finished) {
        end(readError);
        return;
    }
    if (!m_reader->waitingForData())
        QMetaObject::invokeMethod(this, &InputFeeder::readSome, Qt::QueuedConnection);
}

} // namespace crawl
