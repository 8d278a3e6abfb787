#pragma once

#include "models/resultrow.h"
#include "models/resultsmodel.h"

#include <QByteArray>
#include <QByteArrayView>

#include <array>
#include <vector>

namespace ui {

class ResultStore;

// Orders rows of a ResultStore by one ResultsModel column, fast enough for a million rows.
//
// Every row gets a key of two 64-bit words compared as integers: a number, the rank of an interned
// string (host, content type), or 16 bytes of the URL after the prefix all rows share. Only ties that
// need more text are refined: URLs by their next 16 bytes (a most-significant-digit radix refinement),
// error texts by comparing the texts. Equal rows keep their given order, in both directions.
//
// The texts a URL or title sort compares may be spilled to disk (TextArena). Unless they are pinned in
// memory already, sorted() copies the texts of the rows it is given (a few thousand, typically) with one
// small read each, and rowLess() reads the two it compares; only an error-text sort, or a URL or title
// sort of more than kMaxCopiedRows, pins every text for its duration.
class ResultSorter {
public:
    static constexpr size_t kMaxCopiedRows = 65'536;

    // `pinTexts` false: the caller keeps the store's texts pinned for as long as this sorter is used, and
    // the sorter never touches the store once it is no longer used (it may outlive the store).
    ResultSorter(const ResultStore &store, ResultsModel::Column column, Qt::SortOrder order,
                 bool pinTexts = true);
    ~ResultSorter();
    ResultSorter(const ResultSorter &) = delete;
    ResultSorter &operator=(const ResultSorter &) = delete;

    // The columns whose order needs every row's text in memory (the store's texts are pinned meanwhile).
    static bool sortsByText(int column) {
        return column == ResultsModel::UrlColumn || column == ResultsModel::TitleColumn ||
               column == ResultsModel::ErrorColumn;
    }

    // The columns ordered by one word per row (a number, or an interned text's id): a sort holds those
    // words (ResultStore::holdSortKeys with columnKey) instead of the rows, which may be on disk.
    static bool sortsByKey(int column) {
        return column >= 0 && column < ResultsModel::ColumnCount && !sortsByText(column);
    }
    // The word of `row` that orders `column` (interned texts: their id, ranked when sorting).
    static quint64 columnKey(const ResultStore &store, int column, qsizetype i, const ResultRow &row);

    // For a sort that runs while rows are replaced (SlicedSorter): the words of `rows` as they are now are
    // what every later comparison uses, so runs sorted earlier and merged later agree with each other
    // (whoever sorts places the replaced rows again afterwards). Only for sortsByKey() columns; 8 bytes per
    // row of the store.
    void freezeKeys(const std::vector<int> &rows);

    // `rows` (row numbers in the store) in sorted order.
    std::vector<int> sorted(const std::vector<int> &rows) const;
    // Whether store row x sorts before row y (the same order as sorted(); false for ties). For placing a
    // few new rows into an already sorted list by binary search.
    bool rowLess(int x, int y) const;

private:
    struct Key {
        quint64 a = 0;
        quint64 b = 0;
        int position = 0; // in the given rows: the last tie-breaker, which makes the sort stable
        int row = 0;
    };

    bool less(const Key &x, const Key &y) const;
    int compareRows(int x, int y) const; // ascending: <0, 0, >0
    std::vector<Key> makeKeys(const std::vector<int> &rows, qsizetype urlPrefix) const;
    std::vector<quint32> stringRanks() const;
    const std::vector<quint64> *heldKeys() const; // frozen, else the store's held ones, else none
    quint64 rankOf(quint32 id) const;
    qsizetype sharedUrlPrefix(const std::vector<int> &rows) const;
    void setUrlKey(Key *key, qsizetype offset) const;
    void refineUrlTies(std::vector<Key> *keys, qsizetype offset) const;
    void sortErrorTexts(std::vector<Key> *keys) const;
    void refineTitleTies(std::vector<Key> *keys) const;
    // The URL (URL column) or title (title column) of a row: a copy made by sorted(), a small read, or the
    // store's own view when its texts are in memory.
    QByteArrayView sortText(int row) const;
    void copyTexts(const std::vector<int> &rows) const;

    struct CopiedText {
        int row = 0;
        qsizetype from = 0;
        qsizetype size = 0;
    };

    const ResultStore &m_store;
    // The interned strings' ranks, computed at the first sort that needs them: rows sorted later by the
    // same sorter intern nothing new (a sliced sort orders its chunks with one sorter).
    mutable std::vector<quint32> m_stringRanks;
    std::vector<quint64> m_frozenKeys; // by store row (freezeKeys); empty: none
    ResultsModel::Column m_column;
    bool m_descending;
    bool m_pinsTexts; // URL and title keys compare random rows: spilled texts come back for the sort
    bool m_copiesTexts = false; // the texts of the rows sorted are copied out instead (see above)
    mutable std::vector<CopiedText> m_copied; // by row
    mutable QByteArray m_copiedBytes;
    mutable std::array<QByteArray, 2> m_reads; // rowLess' two texts of rows not copied
    mutable size_t m_nextRead = 0;
};

} // namespace ui
