#pragma once

#include <QWidget>

class QAction;
class QLineEdit;
class QSplitter;
class QTableView;
class QTextBrowser;

namespace ui {

class IncrementalFilter;
class ResultFilterSortModel;
class ResultsModel;

// A Failures or Results tab: a filter bar (text, outcomes with counts), the table sorted on demand and,
// for failures, the details of the current row. Each page has its own filter over the shared results.
class ResultsPage : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Failures, Results };

    ResultsPage(Kind kind, ResultsModel *results, QWidget *parent = nullptr);

    Kind kind() const { return m_kind; }
    QTableView *view() const { return m_view; }
    ResultFilterSortModel *filterModel() const { return m_filter; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QTextBrowser *details() const { return m_details; } // null on the Results page
    QSplitter *splitter() const { return m_splitter; }  // null on the Results page
    // Applies the filter edit's text in slices.
    IncrementalFilter *textFilter() const { return m_textFilter; }

    // Added to the table's context menu (after Copy URL, Copy Row, Open in Browser).
    void addRowAction(QAction *action);
    QAction *copyUrlAction() const { return m_copyUrl; }
    QAction *copyRowAction() const { return m_copyRow; }
    QAction *openInBrowserAction() const { return m_openInBrowser; }

    void focusFilter();
    void clearDetails(); // a new crawl
    // No sort chosen: the rows show in arrival order (the model hears it too).
    void clearSortIndicator();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

Q_SIGNALS:
    void statusMessage(const QString &text, int timeoutMs);

private:
    QWidget *makeFilterBar();
    void createRowActions();
    QList<int> selectedSourceRows() const; // in view order
    void copySelectedUrls();
    void copySelectedRows();
    void openCurrentInBrowser();
    void updateRowActions();
    void showDetails(bool force);

    Kind m_kind;
    ResultsModel *m_results;
    ResultFilterSortModel *m_filter;
    QTableView *m_view = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    IncrementalFilter *m_textFilter = nullptr;
    QTextBrowser *m_details = nullptr;
    QSplitter *m_splitter = nullptr;
    QAction *m_copyUrl = nullptr;
    QAction *m_copyRow = nullptr;
    QAction *m_openInBrowser = nullptr;
    int m_detailsSourceRow = -1; // the results row the details show
};

} // namespace ui
