#pragma once

#include <QString>

struct sqlite3;
struct sqlite3_stmt;

namespace crawl {

// One prepared SQLite statement, finalized on destruction. Prepared once and reused (bind, step, reset):
// parsing SQL per row would cost more than the row itself on the store's hot path.
class SqlStatement {
public:
    SqlStatement() = default;
    ~SqlStatement();
    SqlStatement(const SqlStatement &) = delete;
    SqlStatement &operator=(const SqlStatement &) = delete;
    SqlStatement(SqlStatement &&other) noexcept;
    SqlStatement &operator=(SqlStatement &&other) noexcept;

    int prepare(sqlite3 *db, const char *sql); // an SQLite result code
    bool isPrepared() const { return m_stmt != nullptr; }

    void bind(int index, qint64 value);
    void bind(int index, const QString &text); // a null QString binds NULL
    void bindNull(int index);

    int step(); // SQLITE_ROW, SQLITE_DONE or an error code
    void reset();

    bool isNull(int column) const;
    qint64 int64(int column) const;
    QString text(int column) const;

private:
    sqlite3_stmt *m_stmt = nullptr;
};

} // namespace crawl
