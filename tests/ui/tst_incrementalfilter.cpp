// The results table's text filter over 200,000 rows, driven through the filter line edit as a user types:
// evaluated in slices across turns of the event loop, the old rows shown until the new result replaces them
// in one reset, typing again cancels the running pass, rows that arrive meanwhile are judged too. Every
// result is compared with the one-shot filter (ResultFilterSortModel::setTextFilter) over the same rows.
#include "eventlooplagprobe.h"
#include "models/incrementalfilter.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "models/resultsorter.h"
#include "pages/resultspage.h"
#include "syntheticresults.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <numeric>

namespace {

constexpr int kRows = 200'000;

void addRows(ui::ResultsModel &model, int first, int count) {
    QList<crawl::CrawlResult> results;
    results.reserve(count);
    for (int i = first; i < first + count; ++i)
        results.append(testsite::makeSyntheticResult(quint64(i)));
    model.addResults(results);
}

// The rows the one-shot filter shows for `text` with the page's other filters, in source order.
std::vector<int> expectedRows(ui::ResultsModel &model, const ui::ResultFilterSortModel &shown,
                              const QString &text) {
    ui::ResultFilterSortModel reference;
    reference.setResultsModel(&model);
    reference.setFailuresOnly(shown.failuresOnly());
    reference.setOutcomeMask(shown.outcomeMask());
    reference.setTextFilter(text);
    return reference.sourceRows();
}

std::vector<int> shownRows(const ui::ResultFilterSortModel &shown) {
    std::vector<int> rows = shown.sourceRows();
    std::sort(rows.begin(), rows.end());
    return rows;
}

QLabel *countLabel(ui::ResultsPage &page) {
    for (QLabel *label : page.findChildren<QLabel *>()) {
        if (label->text().endsWith(QStringLiteral(" rows")) ||
            label->text().startsWith(QStringLiteral("filtering")))
            return label;
    }
    return nullptr;
}

} // namespace

class TestIncrementalFilter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        m_model = std::make_unique<ui::ResultsModel>();
        addRows(*m_model, 0, kRows);
        m_page = std::make_unique<ui::ResultsPage>(ui::ResultsPage::Kind::Results, m_model.get());
        m_page->resize(1200, 700);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
        // 1 ms slices: 200,000 rows take many turns on any machine, so the slicing itself is exercised.
        m_page->textFilter()->setBudgetMs(1);
    }
    void cleanup() {
        m_page.reset();
        m_model.reset();
    }

    void typedTextFiltersInSlicesAndSwapsAtTheEnd() {
        ui::ResultFilterSortModel *shown = m_page->filterModel();
        QLabel *count = countLabel(*m_page);
        QVERIFY(count);
        QCOMPARE(shown->rowCount(), kRows);
        QSignalSpy progress(m_page->textFilter(), &ui::IncrementalFilter::progressChanged);
        QSignalSpy finished(m_page->textFilter(), &ui::IncrementalFilter::finished);
        // What the table shows at every progress step: still everything (the old filter), and the label
        // says the filter is running.
        std::vector<int> rowsDuringPass;
        QStringList labelsDuringPass;
        connect(m_page->textFilter(), &ui::IncrementalFilter::progressChanged, this, [&] {
            rowsDuringPass.push_back(shown->rowCount());
            labelsDuringPass.append(count->text());
        });
        ui::EventLoopLagProbe lag;
        lag.start();
        m_page->filterEdit()->setFocus();
        QTest::keyClicks(m_page->filterEdit(), QStringLiteral("ITEM/12345"));
        QVERIFY(finished.wait(20'000));
        lag.stop();

        QVERIFY2(progress.count() >= 2, qPrintable(QString::number(progress.count())));
        QVERIFY(
            std::all_of(rowsDuringPass.cbegin(), rowsDuringPass.cend(), [](int n) { return n == kRows; }));
        QVERIFY2(labelsDuringPass.first().startsWith(QStringLiteral("filtering")),
                 qPrintable(labelsDuringPass.first()));
        QCOMPARE(shown->textFilter(), QStringLiteral("ITEM/12345"));
        // item/12345 and item/123450..123459 (case-insensitive).
        QCOMPARE(shown->rowCount(), 11);
        QCOMPARE(shownRows(*shown), expectedRows(*m_model, *shown, QStringLiteral("ITEM/12345")));
        QCOMPARE(count->text(), QStringLiteral("11 rows"));
        // A loose bound, not a timing claim (bench-window measures): no turn did the whole pass at once.
        QVERIFY2(lag.maxMs() < 200, qPrintable(QString::number(lag.maxMs())));

        // Clearing the field shows every row again, through the same slices.
        finished.clear();
        m_page->filterEdit()->clear();
        QVERIFY(finished.wait(20'000));
        QCOMPARE(shown->rowCount(), kRows);
        QCOMPARE(shown->textFilter(), QString());
    }

    void typingAgainCancelsTheRunningPass() {
        ui::ResultFilterSortModel *shown = m_page->filterModel();
        QStringList adopted; // the text filter after every reset of the table
        connect(shown, &QAbstractItemModel::modelReset, this, [&] { adopted.append(shown->textFilter()); });
        QSignalSpy progress(m_page->textFilter(), &ui::IncrementalFilter::progressChanged);
        m_page->filterEdit()->setFocus();
        QTest::keyClicks(m_page->filterEdit(), QStringLiteral("item/1"));
        QVERIFY(progress.wait(20'000)); // the pass for "item/1" is under way
        QVERIFY(m_page->textFilter()->isRunning());
        QTest::keyClicks(m_page->filterEdit(), QStringLiteral("9999"));
        QVERIFY(QTest::qWaitFor([&] { return !adopted.isEmpty() && !m_page->textFilter()->isRunning(); },
                                20'000));
        // "item/1" never reached the table: it was replaced by "item/19999" before it completed.
        QCOMPARE(adopted, QStringList{QStringLiteral("item/19999")});
        QCOMPARE(shownRows(*shown), expectedRows(*m_model, *shown, QStringLiteral("item/19999")));
        QCOMPARE(shown->rowCount(), 11); // 19999 and 199990..199999
    }

    void rowsArrivingAndFiltersChangingDuringThePassAreJudged() {
        ui::ResultFilterSortModel *shown = m_page->filterModel();
        QSignalSpy progress(m_page->textFilter(), &ui::IncrementalFilter::progressChanged);
        QSignalSpy finished(m_page->textFilter(), &ui::IncrementalFilter::finished);
        m_page->filterEdit()->setFocus();
        QTest::keyClicks(m_page->filterEdit(), QStringLiteral("item/2000"));
        QVERIFY(progress.wait(20'000));
        // A crawl delivers more rows (item/200000..200999: 100 of them match), and the user narrows the
        // outcomes, while the pass runs.
        addRows(*m_model, kRows, 1000);
        QVERIFY(finished.isEmpty());
        shown->setFailuresOnly(true);
        QVERIFY(finished.wait(20'000));
        QCOMPARE(shown->textFilter(), QStringLiteral("item/2000"));
        const std::vector<int> expected = expectedRows(*m_model, *shown, QStringLiteral("item/2000"));
        QCOMPARE(shownRows(*shown), expected);
        // 2000, 20000..20009, 200000..200099 are matches; of those, every 20th id failed (404).
        QCOMPARE(int(expected.size()), 1 + 1 + 5);
    }

    void filterWithASortHeldIsOrderedInSlicesToo() {
        // The user sorts by latency (header clicked twice: slowest first), then types a filter that keeps
        // most rows: ordering them is sliced like judging them, so no turn of the event loop sorts
        // 100,000 rows, and the table keeps the old rows until the sorted result replaces them.
        ui::ResultFilterSortModel *shown = m_page->filterModel();
        QTableView *view = m_page->view();
        QHeaderView *header = view->horizontalHeader();
        for (int click = 0; click < 2; ++click) {
            view->scrollTo(view->model()->index(0, ui::ResultsModel::LatencyColumn));
            const QPoint at(header->sectionViewportPosition(ui::ResultsModel::LatencyColumn) +
                                header->sectionSize(ui::ResultsModel::LatencyColumn) / 2,
                            header->height() / 2);
            QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, at);
        }
        QCOMPARE(shown->sortColumn(), int(ui::ResultsModel::LatencyColumn));
        QCOMPARE(shown->sortOrder(), Qt::DescendingOrder);

        QSignalSpy finished(m_page->textFilter(), &ui::IncrementalFilter::finished);
        std::vector<int> percents;
        std::vector<int> rowsDuringPass;
        bool addedDuringSort = false;
        connect(m_page->textFilter(), &ui::IncrementalFilter::progressChanged, this, [&](int percent) {
            percents.push_back(percent);
            rowsDuringPass.push_back(shown->rowCount());
            // Rows that arrive while the kept rows are being ordered (item/1000000..1000499, all
            // matches) must be judged and placed too.
            if (percent > 50 && !addedDuringSort) {
                addedDuringSort = true;
                addRows(*m_model, 1'000'000, 500);
            }
        });
        ui::EventLoopLagProbe lag;
        lag.start();
        m_page->filterEdit()->setFocus();
        QTest::keyClicks(m_page->filterEdit(), QStringLiteral("item/1"));
        QVERIFY(finished.wait(20'000));
        lag.stop();

        QVERIFY(addedDuringSort); // the sort's half of the pass ran over several turns
        QVERIFY(std::is_sorted(percents.cbegin(), percents.cend()));
        QVERIFY(std::all_of(rowsDuringPass.cbegin(), rowsDuringPass.cend(), [&](int n) {
            return n == kRows || n == kRows + 500; // the old filter (everything) until the swap
        }));
        std::vector<int> expected = expectedRows(*m_model, *shown, QStringLiteral("item/1"));
        // item/1, 10..19, ..., 100000..199999 and the 500 late ones.
        QCOMPARE(int(expected.size()), 111'111 + 500);
        QCOMPARE(expected.back(), kRows + 499);
        // Slowest first; equal latencies in arrival order.
        expected = ui::ResultSorter(m_model->store(), ui::ResultsModel::LatencyColumn, Qt::DescendingOrder)
                       .sorted(expected);
        QVERIFY(shown->sourceRows() == expected);
        QVERIFY2(lag.maxMs() < 200, qPrintable(QString::number(lag.maxMs())));
    }

    void headerClickOnManyRowsSortsInSlicesKeepingTheSelection() {
        // A header click on 200,000 rows: the order is computed across turns of the event loop while the
        // table keeps its rows and the count says "sorting…"; rows streamed in and a row replaced (a
        // retry) meanwhile end up in place, and the selected row stays selected.
        ui::ResultFilterSortModel *shown = m_page->filterModel();
        shown->setSortBudgetMs(1);
        QTableView *view = m_page->view();
        view->setFocus();
        view->selectRow(10);
        const int selectedSource = shown->sourceRow(view->currentIndex().row());
        QLabel *count = countLabel(*m_page);
        QVERIFY(count);

        QStringList labels;
        bool streamed = false;
        connect(shown, &ui::ResultFilterSortModel::sortProgressChanged, this, [&](int percent) {
            labels.append(count->text());
            if (percent < 100 && !streamed) {
                streamed = true;
                addRows(*m_model, 1'000'000, 300);
                crawl::CrawlResult retried = testsite::makeSyntheticResult(77);
                retried.latencyMs = -7; // the only negative latency: first once sorted
                m_model->addResults({retried});
            }
        });
        QHeaderView *header = view->horizontalHeader();
        view->scrollTo(view->model()->index(0, ui::ResultsModel::LatencyColumn));
        const QPoint at(header->sectionViewportPosition(ui::ResultsModel::LatencyColumn) +
                            header->sectionSize(ui::ResultsModel::LatencyColumn) / 2,
                        header->height() / 2);
        ui::EventLoopLagProbe lag;
        lag.start();
        QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY(shown->isSorting());
        QVERIFY(QTest::qWaitFor([&] { return !shown->isSorting(); }, 30'000));
        lag.stop();

        QVERIFY(streamed);
        QVERIFY2(labels.size() > 2 && labels.first().startsWith(QStringLiteral("sorting… ")),
                 qPrintable(labels.join(QLatin1Char('|'))));
        QCOMPARE(count->text(), QStringLiteral("200,300 rows"));
        std::vector<int> all(size_t(kRows + 300));
        std::iota(all.begin(), all.end(), 0);
        const std::vector<int> expected =
            ui::ResultSorter(m_model->store(), ui::ResultsModel::LatencyColumn, Qt::AscendingOrder)
                .sorted(all);
        QVERIFY(shown->sourceRows() == expected);
        QCOMPARE(shown->sourceRow(0), 77);
        QCOMPARE(shown->sourceRow(view->currentIndex().row()), selectedSource);
        QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row(), {}));
        QVERIFY2(lag.maxMs() < 200, qPrintable(QString::number(lag.maxMs())));
    }

    void otherFiltersWithASortHeldKeepTheOrderOfTheRowsShown() {
        // With 200,000 rows sorted by size (997 sizes, each shared by failures and successes): narrowing a
        // filter sorts nothing, letting a few rows in places them, letting many in sorts in slices; every
        // result is exactly the full sort of the rows that pass, equal sizes in arrival order.
        ui::ResultFilterSortModel *shown = m_page->filterModel();
        shown->setSortBudgetMs(1);
        shown->sort(ui::ResultsModel::BytesColumn, Qt::DescendingOrder);
        QVERIFY(QTest::qWaitFor([&] { return !shown->isSorting(); }, 30'000));
        const auto fullSort = [&] {
            ui::ResultFilterSortModel reference;
            reference.setResultsModel(m_model.get());
            reference.setFailuresOnly(shown->failuresOnly());
            reference.setOutcomeMask(shown->outcomeMask());
            return ui::ResultSorter(m_model->store(), ui::ResultsModel::BytesColumn, Qt::DescendingOrder)
                .sorted(reference.sourceRows());
        };
        QSignalSpy progress(shown, &ui::ResultFilterSortModel::sortProgressChanged);

        shown->setOutcomeMask(1u << unsigned(crawl::Outcome::Ok)); // narrower: 190,000 rows
        QVERIFY(!shown->isSorting());
        QCOMPARE(shown->rowCount(), 190'000);
        QVERIFY(shown->sourceRows() == fullSort());

        shown->setOutcomeMask(~0u); // 10,000 rows come back: placed at once
        QVERIFY(!shown->isSorting());
        QCOMPARE(shown->rowCount(), kRows);
        QVERIFY(shown->sourceRows() == fullSort());

        shown->setFailuresOnly(true); // narrower again: the 10,000 failures
        QVERIFY(!shown->isSorting());
        QVERIFY(shown->sourceRows() == fullSort());
        QVERIFY(progress.isEmpty());

        shown->setFailuresOnly(false); // 190,000 come back: sorted in slices
        QVERIFY(shown->isSorting());
        QCOMPARE(shown->rowCount(), kRows);
        QVERIFY(QTest::qWaitFor([&] { return !shown->isSorting(); }, 30'000));
        QVERIFY(progress.size() > 2);
        QVERIFY(shown->sourceRows() == fullSort());
    }

private:
    std::unique_ptr<ui::ResultsModel> m_model;
    std::unique_ptr<ui::ResultsPage> m_page;
};

QTEST_MAIN(TestIncrementalFilter)
#include "tst_incrementalfilter.moc"
