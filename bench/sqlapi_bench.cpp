// bench-sqlite-api: why the crawl store uses SQLite's C API rather than Qt Sql (not a test). The same
// batched work both ways on the same kind of file (WAL, synchronous=NORMAL, 1,000 rows a transaction):
// insert N entry rows with a UNIQUE url, then update each by id. Prints CPU microseconds per row (CPU,
// not wall time: the build machine is shared) and rows/s. Needs Qt's SQLite plugin (libqt6sql6-sqlite).
//   bench-sqlite-api [--rows N]
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstdio>
#include <sqlite3.h>
#include <sys/resource.h>

namespace {

constexpr const char *kSchema =
    "CREATE TABLE entries(id INTEGER PRIMARY KEY, line INTEGER NOT NULL, url TEXT "
    "UNIQUE, host_id INTEGER, state INTEGER NOT NULL, next_at INTEGER NOT NULL)";
constexpr const char *kInsert =
    "INSERT INTO entries(line, url, host_id, state, next_at) VALUES (?, ?, ?, 0, ?)";
constexpr const char *kUpdate = "UPDATE entries SET state = 3, next_at = ? WHERE id = ?";
constexpr int kBatch = 1000;

qint64 cpuUs() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return qint64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1'000'000 + usage.ru_utime.tv_usec +
           usage.ru_stime.tv_usec;
}

QString urlFor(qint64 i) {
    return QStringLiteral("https://host%1.example/page/%2").arg(i % 10'000).arg(i);
}

struct Phase {
    qint64 cpuUs = 0;
    qint64 wallNs = 0;
};

template <typename Work> Phase measure(Work work) {
    const qint64 cpu = cpuUs();
    QElapsedTimer wall;
    wall.start();
    work();
    return {cpuUs() - cpu, wall.nsecsElapsed()};
}

void report(QJsonObject *out, const QString &name, const Phase &phase, qint64 rows) {
    (*out)[name + QStringLiteral("_cpu_us_per_row")] = double(phase.cpuUs) / double(rows);
    (*out)[name + QStringLiteral("_rows_per_s")] = qRound64(rows / (phase.wallNs / 1e9));
}

bool runCApi(const QString &path, qint64 rows, QJsonObject *out) {
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK)
        return false;
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", nullptr, nullptr, nullptr);
    sqlite3_exec(db, kSchema, nullptr, nullptr, nullptr);
    sqlite3_stmt *insert = nullptr;
    sqlite3_stmt *update = nullptr;
    sqlite3_prepare_v2(db, kInsert, -1, &insert, nullptr);
    sqlite3_prepare_v2(db, kUpdate, -1, &update, nullptr);
    bool ok = true;
    report(out, QStringLiteral("c_api_insert"), measure([&] {
               for (qint64 i = 0; i < rows && ok; ++i) {
                   if (i % kBatch == 0)
                       sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
                   const QByteArray url = urlFor(i).toUtf8();
                   sqlite3_bind_int64(insert, 1, i + 1);
                   sqlite3_bind_text(insert, 2, url.constData(), int(url.size()), SQLITE_TRANSIENT);
                   sqlite3_bind_int64(insert, 3, i % 10'000);
                   sqlite3_bind_int64(insert, 4, 1'800'000'000'000);
                   ok = sqlite3_step(insert) == SQLITE_DONE;
                   sqlite3_reset(insert);
                   if (i % kBatch == kBatch - 1 || i + 1 == rows)
                       sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
               }
           }),
           rows);
    report(out, QStringLiteral("c_api_update"), measure([&] {
               for (qint64 i = 0; i < rows && ok; ++i) {
                   if (i % kBatch == 0)
                       sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
                   sqlite3_bind_int64(update, 1, 1'800'000'000'001);
                   sqlite3_bind_int64(update, 2, i + 1);
                   ok = sqlite3_step(update) == SQLITE_DONE;
                   sqlite3_reset(update);
                   if (i % kBatch == kBatch - 1 || i + 1 == rows)
                       sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
               }
           }),
           rows);
    sqlite3_finalize(insert);
    sqlite3_finalize(update);
    sqlite3_close(db);
    return ok;
}

bool runQtSql(const QString &path, qint64 rows, QJsonObject *out) {
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bench"));
        db.setDatabaseName(path);
        if (!db.open()) {
            fprintf(stderr, "bench-sqlite-api: Qt Sql: %s\n", qPrintable(db.lastError().text()));
            return false;
        }
        QSqlQuery setup(db);
        setup.exec(QStringLiteral("PRAGMA journal_mode = WAL"));
        setup.exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
        setup.exec(QString::fromLatin1(kSchema));
        QSqlQuery insert(db);
        QSqlQuery update(db);
        insert.prepare(QString::fromLatin1(kInsert));
        update.prepare(QString::fromLatin1(kUpdate));
        report(out, QStringLiteral("qt_sql_insert"), measure([&] {
                   for (qint64 i = 0; i < rows && ok; ++i) {
                       if (i % kBatch == 0)
                           db.transaction();
                       insert.bindValue(0, i + 1);
                       insert.bindValue(1, urlFor(i));
                       insert.bindValue(2, i % 10'000);
                       insert.bindValue(3, qint64(1'800'000'000'000));
                       ok = insert.exec();
                       if (i % kBatch == kBatch - 1 || i + 1 == rows)
                           db.commit();
                   }
               }),
               rows);
        report(out, QStringLiteral("qt_sql_update"), measure([&] {
                   for (qint64 i = 0; i < rows && ok; ++i) {
                       if (i % kBatch == 0)
                           db.transaction();
                       update.bindValue(0, qint64(1'800'000'000'001));
                       update.bindValue(1, i + 1);
                       ok = update.exec();
                       if (i % kBatch == kBatch - 1 || i + 1 == rows)
                           db.commit();
                   }
               }),
               rows);
        if (!ok)
            fprintf(stderr, "bench-sqlite-api: Qt Sql: %s\n", qPrintable(insert.lastError().text()));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench"));
    return ok;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qsizetype at = args.indexOf(QStringLiteral("--rows"));
    const qint64 rows = at >= 0 && at + 1 < args.size() ? args.at(at + 1).toLongLong() : 200'000;
    QTemporaryDir dir;
    QJsonObject out;
    out[QStringLiteral("rows")] = rows;
    out[QStringLiteral("sqlite")] = QString::fromLatin1(sqlite3_libversion());
    if (!runCApi(dir.filePath(QStringLiteral("capi.db")), rows, &out))
        return 1;
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        out[QStringLiteral("qt_sql")] = QStringLiteral("QSQLITE driver not installed (libqt6sql6-sqlite)");
    else if (!runQtSql(dir.filePath(QStringLiteral("qtsql.db")), rows, &out))
        return 1;
    printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Indented).constData());
    return 0;
}
