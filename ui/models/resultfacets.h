#pragma once

#include <QList>
#include <QMap>
#include <QPair>
#include <QString>

namespace ui {

class ResultStore;

// How many rows have each status and each host: the counts beside the status and host filters' choices.
// Counted when a filter menu opens (a few milliseconds for a million rows), not kept on every insert.
struct ResultFacets {
    QMap<int, qint64> statuses;          // status (0 = no response) -> rows
    QList<QPair<QString, qint64>> hosts; // most rows first, then by name
    qint64 rows = 0;

    // `failuresOnly`: count only the rows a Failures table can show.
    static ResultFacets count(const ResultStore &store, bool failuresOnly);
};

} // namespace ui
