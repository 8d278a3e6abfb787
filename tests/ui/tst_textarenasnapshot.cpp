// The CSV export's snapshot of the results texts (TextArena's copy) while a sort by URL or title pins every
// chunk in memory (issue 11): the snapshot shares the chunks already in the texts file instead of copying
// them, reads each text back exactly, and costs the process almost no memory (measured as RSS).
#include "models/textarena.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

namespace {

QByteArray textOf(int row) {
    return QByteArrayLiteral("https://host-") + QByteArray::number(row % 977) +
           QByteArrayLiteral(".example/p/") + QByteArray::number(row) +
           QByteArrayLiteral("?sort=title&page=") + QByteArray::number(row * 7);
}

// Resident set size of this process, from /proc/self/statm.
qint64 rssBytes() {
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields.at(1).toLongLong() * 4096 : -1;
}

} // namespace

class TestTextArenaSnapshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void snapshotOfPinnedTextsSharesTheFile() {
        QTemporaryDir dir;
        ui::TextArena arena;
        QVERIFY(arena.setSpillDirectory(dir.path()));
        constexpr int kRows = 300'000; // about 20 MB of URLs
        std::vector<quint64> refs(kRows);
        for (int row = 0; row < kRows; ++row)
            refs[size_t(row)] = arena.append(textOf(row), {});
        arena.pin(); // a sort by URL is in force: every chunk in memory
        const qint64 pinned = arena.residentBytes();
        QVERIFY2(pinned > 15'000'000, qPrintable(QString::number(pinned)));

        const qint64 rssBefore = rssBytes();
        auto snapshot = std::make_unique<const ui::TextArena>(arena);
        const qint64 rssAfter = rssBytes();
        qInfo("pinned texts %lld bytes; snapshot holds %lld bytes; process RSS %lld -> %lld (+%lld)", pinned,
              snapshot->residentBytes(), rssBefore, rssAfter, rssAfter - rssBefore);
        // Only the chunk still being filled is copied.
        QVERIFY2(snapshot->residentBytes() <= qint64(2 * ui::TextArena::kChunkBytes) + 100'000,
                 qPrintable(QString::number(snapshot->residentBytes())));
        QVERIFY2(rssAfter - rssBefore < pinned / 4,
                 qPrintable(QStringLiteral("RSS grew %1 bytes").arg(rssAfter - rssBefore)));

        // Read in a sorted export's (random) order: every text comes back exactly.
        std::vector<int> order(kRows);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), *QRandomGenerator::global());
        for (const int row : order) {
            const QByteArray expected = textOf(row);
            const QByteArrayView got = snapshot->view(refs[size_t(row)], expected.size());
            if (got != expected)
                QFAIL(qPrintable(QStringLiteral("row %1: \"%2\"").arg(row).arg(QString::fromUtf8(got))));
        }
        QCOMPARE(snapshot->unreadableTexts(), qint64(0));
        // Reading did not pull the chunks in either.
        QVERIFY(snapshot->residentBytes() <= qint64(2 * ui::TextArena::kChunkBytes) + 100'000);
        // The live arena goes on growing and clearing; the snapshot still reads its texts.
        arena.unpin();
        arena.clear();
        QCOMPARE(snapshot->view(refs[12345], textOf(12345).size()), QByteArrayView(textOf(12345)));
    }
};

QTEST_GUILESS_MAIN(TestTextArenaSnapshot)
#include "tst_textarenasnapshot.moc"
