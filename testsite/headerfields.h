#pragma once
// Header fields as a test client or a scripted test server parsed them: in arrival order, names as sent.

#include <QByteArray>
#include <QList>
#include <QPair>

namespace testsite {

using HeaderFields = QList<QPair<QByteArray, QByteArray>>;

// The first field named `name` (names compare case-insensitively, as HTTP says); nullptr when absent.
inline const QByteArray *findHeader(const HeaderFields &fields, const QByteArray &name) {
    for (const auto &field : fields) {
        if (field.first.compare(name, Qt::CaseInsensitive) == 0)
            return &field.second;
    }
    return nullptr;
}

} // namespace testsite
