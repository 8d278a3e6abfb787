#include "store/sqlstatement.h"

#include <sqlite3.h>
#include <utility>

namespace crawl {

SqlStatement::~SqlStatement() {
    sqlite3_finalize(m_stmt);
}

SqlStatement::SqlStatement(SqlStatement &&other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr)) {}

SqlStatement &SqlStatement::operator=(SqlStatement &&other) noexcept {
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

int SqlStatement::prepare(sqlite3 *db, const char *sql) {
    sqlite3_finalize(m_stmt);
    m_stmt = nullptr;
    return sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
}

void SqlStatement::bind(int index, qint64 value) {
    sqlite3_bind_int64(m_stmt, index, value);
}

void SqlStatement::bind(int index, const QString &text) {
    if (text.isNull()) {
        sqlite3_bind_null(m_stmt, index);
        return;
    }
    const QByteArray utf8 = text.toUtf8();
    sqlite3_bind_text(m_stmt, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

void SqlStatement::bindNull(int index) {
    sqlite3_bind_null(m_stmt, index);
}

int SqlStatement::step() {
    return sqlite3_step(m_stmt);
}

void SqlStatement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool SqlStatement::isNull(int column) const {
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

qint64 SqlStatement::int64(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

QString SqlStatement::text(int column) const {
    const auto *data = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    if (!data)
        return {};
    return QString::fromUtf8(data, sqlite3_column_bytes(m_stmt, column));
}

} // namespace crawl
