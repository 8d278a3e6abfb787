#pragma once
// Shared by the tests that run the real crawlscope executable: starting it, reading and writing files,
// and checking the result CSV (RFC 4180, every row complete).

#include <QDebug>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QList>
#include <QProcess>
#include <QStringList>
#include <QTest>

#include <sys/stat.h>

namespace clitest {

inline const QString kHeader =
    QStringLiteral("url,final_url,host,status,outcome,attempts,redirects,bytes,content_"
                   "type,latency_ms,ttfb_ms,error,started_at,"
                   "finished_at,warning,accepted,reject_reason,title");
inline constexpr int kColumns = 18;
enum Column {
    Url = 0,
    FinalUrl,
    Host,
    Status,
    OutcomeCol,
    Attempts,
    Redirects,
    Bytes,
    ContentType,
    Error = 11,
    Warning = 14,
    Accepted,
    RejectReason,
    Title
};

// RFC 4180: records of fields; sets *ok = false on an unterminated quote or a record not ended by a line
// break (a half-written row).
inline QList<QStringList> parseCsv(const QByteArray &bytes, bool *ok) {
    *ok = true;
    const QString text = QString::fromUtf8(bytes);
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    bool fieldStarted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"') && field.isEmpty()) {
            quoted = true;
            fieldStarted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
            fieldStarted = true;
        } else if (c == QLatin1Char('\r') || c == QLatin1Char('\n')) {
            if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n'))
                ++i;
            row << field;
            rows << row;
            row.clear();
            field.clear();
            fieldStarted = false;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted || fieldStarted || !field.isEmpty() || !row.isEmpty())
        *ok = false;
    return rows;
}

struct Run {
    int exitCode = -1;
    QProcess::ExitStatus exitStatus = QProcess::CrashExit;
    QByteArray out;
    QByteArray err;
    bool finished = false;
};

inline Run runCli(const QStringList &arguments, const QByteArray &stdinData = {}, int timeoutMs = 30'000) {
    QProcess process;
    process.start(QStringLiteral(CRAWLSCOPE_BINARY), arguments);
    Run run;
    if (!process.waitForStarted(10'000))
        return run;
    if (!stdinData.isEmpty())
        process.write(stdinData);
    process.closeWriteChannel();
    run.finished = process.waitForFinished(timeoutMs);
    if (!run.finished) {
        process.kill();
        process.waitForFinished(5000);
    }
    run.exitCode = process.exitCode();
    run.exitStatus = process.exitStatus();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

// Robots.txt is ignored here so the tests that count server requests count only their URLs; the
// command line's default (obey) is tested in tst_cli_quality.
inline QStringList quickFlags() {
    return {QStringLiteral("--headless"), QStringLiteral("--interval-ms"),
            QStringLiteral("0"),          QStringLiteral("--per-host"),
            QStringLiteral("4"),          QStringLiteral("--retries"),
            QStringLiteral("0"),          QStringLiteral("--timeout"),
            QStringLiteral("10"),         QStringLiteral("--robots"),
            QStringLiteral("ignore")};
}

inline bool writeFile(const QString &path, const QByteArray &bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// `count` lines "<prefix><index>\n": a list of that many distinct lines.
inline QByteArray numberedLines(const QByteArray &prefix, int count) {
    QByteArray lines;
    for (int i = 0; i < count; ++i)
        lines += prefix + QByteArray::number(i) + '\n';
    return lines;
}

inline QByteArray readFile(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// What a file is (which inode, what bytes), to show a refused or failed run left it alone.
struct FileStamp {
    bool exists = false;
    ino_t inode = 0;
    mode_t mode = 0;
    QByteArray bytes;
    bool operator==(const FileStamp &) const = default;
};
inline FileStamp stampOf(const QString &path) {
    FileStamp stamp;
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return stamp;
    stamp.exists = true;
    stamp.inode = st.st_ino;
    stamp.mode = st.st_mode;
    if (S_ISREG(st.st_mode))
        stamp.bytes = readFile(path);
    return stamp;
}

// The names in a folder: a run must leave no temporary file behind.
inline QStringList entriesOf(const QString &dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                               QDir::Name);
}

// Checks the header and that every row is complete; returns the data rows keyed by url.
#define PARSE_RESULT_CSV(bytes, rowsVar)                                                                     \
    QList<QStringList> rowsVar;                                                                              \
    do {                                                                                                     \
        bool csvOk_ = false;                                                                                 \
        rowsVar = clitest::parseCsv(bytes, &csvOk_);                                                         \
        QVERIFY2(csvOk_, "the CSV ends inside a row");                                                       \
        QVERIFY(!rowsVar.isEmpty());                                                                         \
        QCOMPARE(rowsVar.first().join(QLatin1Char(',')), clitest::kHeader);                                  \
        QVERIFY((bytes).startsWith(clitest::kHeader.toUtf8() + "\r\n"));                                     \
        rowsVar.removeFirst();                                                                               \
        for (const QStringList &row_ : std::as_const(rowsVar))                                               \
            QVERIFY2(row_.size() == clitest::kColumns, qPrintable(row_.join(QLatin1Char('|'))));             \
    } while (0)

// `crawlscope --export STORE --output CSV` rows (header excluded), as lines; empty when the export fails
// (its stderr is printed).
inline QStringList exportedRows(const QString &store, const QString &csv) {
    QProcess process;
    process.start(QStringLiteral(CRAWLSCOPE_BINARY),
                  {QStringLiteral("--export"), store, QStringLiteral("--output"), csv});
    if (!process.waitForFinished(30'000) || process.exitCode() != 0) {
        qWarning() << process.readAllStandardError();
        return {};
    }
    QFile file(csv);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (!lines.isEmpty())
        lines.removeFirst();
    return lines;
}

// A CSV file of ours keyed by URL (header checked). *count is the number of rows, or -1 when the file is
// not a well-formed CSV of ours or a URL has two rows (every input line must end with exactly one).
inline QHash<QString, QStringList> rowsByUrl(const QString &csv, int *count) {
    bool ok = false;
    const QList<QStringList> rows = parseCsv(readFile(csv), &ok);
    QHash<QString, QStringList> out;
    *count = -1;
    if (!ok || rows.isEmpty() || rows.first().join(QLatin1Char(',')) != kHeader)
        return out;
    for (qsizetype i = 1; i < rows.size(); ++i) {
        if (rows[i].size() != kColumns || out.contains(rows[i][Url]))
            return out;
        out.insert(rows[i][Url], rows[i]);
    }
    *count = int(rows.size() - 1);
    return out;
}

inline const QStringList *rowFor(const QList<QStringList> &rows, const QString &url) {
    for (const QStringList &row : rows) {
        if (row.at(Url) == url)
            return &row;
    }
    return nullptr;
}

} // namespace clitest
