#pragma once

#include <QDialog>

#include <functional>

class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace ui {

// File > Manage Crawls: every crawl the window journaled (in the crawls folder, named on top), with
// its list, start time, rows done of total, size and state, so old crawls do not fill the disk unseen.
// Open reopens one in the window; Delete removes the selected files (never one a crawl is running in);
// Show Folder opens the folder in the file manager.
class CrawlFilesDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { NameColumn, ListColumn, StartedColumn, RowsColumn, SizeColumn, StateColumn, ColumnCount };

    CrawlFilesDialog(const QString &folder, QWidget *parent = nullptr);

    // The crawl file the window itself has open: shown as in use, never deleted.
    void setLiveFile(const QString &path);
    void setConfirmationsEnabled(bool on) { m_confirm = on; }
    void refresh();
    QTableView *view() const { return m_view; }
    // Deletes the files of these rows (asks first unless confirmations are off); returns how many.
    int deleteRows(const QList<int> &rows);

Q_SIGNALS:
    void openRequested(const QString &path);

private:
    QList<int> selectedRows() const;

    QString m_folder;
    QString m_liveFile;
    bool m_confirm = true;
    QLabel *m_summary;
    QTableView *m_view;
    QStandardItemModel *m_model;
    QPushButton *m_open;
    QPushButton *m_delete;
};

} // namespace ui
