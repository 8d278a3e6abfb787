#include "crawlfiles/crawlfilesdialog.h"

#include "crawlfiles/crawlfileinfo.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

namespace ui {

namespace {
constexpr int kPathRole = Qt::UserRole + 1;

QString stateText(const CrawlFileInfo &info, bool live) {
    if (live || info.busy)
        return QObject::tr("in use");
    if (!info.error.isEmpty())
        return QObject::tr("unreadable");
    if (!info.isUnfinished())
        return QObject::tr("complete");
    if (info.state == CrawlFileInfo::kRunning)
        return QObject::tr("interrupted");
    return QObject::tr("unfinished");
}
} // namespace

CrawlFilesDialog::CrawlFilesDialog(const QString &folder, QWidget *parent)
    : QDialog(parent)
    , m_folder(folder)
    , m_summary(new QLabel)
    , m_view(new QTableView)
    , m_model(new QStandardItemModel(0, ColumnCount, this)) {
    setWindowTitle(tr("Manage Crawls"));
    setObjectName(QStringLiteral("crawlFilesDialog"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);
    m_model->setHorizontalHeaderLabels(
        {tr("File"), tr("List"), tr("Started"), tr("Rows done"), tr("Size"), tr("State")});
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(NameColumn, 260);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::ActionRole);
    m_delete = buttons->addButton(tr("&Delete"), QDialogButtonBox::DestructiveRole);
    QPushButton *showFolder = buttons->addButton(tr("Show &Folder"), QDialogButtonBox::HelpRole);
    QPushButton *reload = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(reload, &QPushButton::clicked, this, &CrawlFilesDialog::refresh);
    connect(showFolder, &QPushButton::clicked, this, [this] {
        QDir().mkpath(m_folder);
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_folder));
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        if (rows.size() == 1) {
            Q_EMIT openRequested(m_model->index(rows.first(), 0).data(kPathRole).toString());
            accept();
        }
    });
    connect(m_delete, &QPushButton::clicked, this, [this] { deleteRows(selectedRows()); });
    connect(m_view, &QTableView::doubleClicked, m_open, &QPushButton::click);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);
    resize(900, 420);
    refresh();
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        m_open->setEnabled(selectedRows().size() == 1);
        m_delete->setEnabled(!selectedRows().isEmpty());
    });
}

void CrawlFilesDialog::setLiveFile(const QString &path) {
    m_liveFile = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    refresh();
}

void CrawlFilesDialog::refresh() {
    m_model->removeRows(0, m_model->rowCount());
    const QList<CrawlFileInfo> files = CrawlFileInfo::scan(m_folder);
    const QLocale locale;
    qint64 totalBytes = 0;
    for (const CrawlFileInfo &info : files) {
        const bool live = QFileInfo(info.path).absoluteFilePath() == m_liveFile;
        totalBytes += info.sizeBytes;
        QList<QStandardItem *> items;
        items << new QStandardItem(QFileInfo(info.path).fileName());
        items << new QStandardItem(info.listName);
        items << new QStandardItem(info.startedAt.isValid()
                                       ? locale.toString(info.startedAt.toLocalTime(), QLocale::ShortFormat)
                                       : QString());
        items << new QStandardItem(
            info.error.isEmpty() ? tr("%1 of %2").arg(locale.toString(info.done), locale.toString(info.total))
                                 : QString());
        items << new QStandardItem(locale.formattedDataSize(info.sizeBytes));
        auto *state = new QStandardItem(stateText(info, live));
        state->setToolTip(info.error);
        items << state;
        items.first()->setData(info.path, kPathRole);
        items.first()->setData(live || info.busy, kPathRole + 1);
        items.first()->setToolTip(QDir::toNativeSeparators(info.path));
        m_model->appendRow(items);
    }
    m_summary->setText(
        tr("Every crawl started in the window is journaled in <b>%1</b>, so it survives a "
           "crash and can be reopened or resumed. %n crawl file(s), %2 in all.",
           nullptr, int(files.size()))
            .arg(QDir::toNativeSeparators(m_folder).toHtmlEscaped(), locale.formattedDataSize(totalBytes)));
    m_open->setEnabled(false);
    m_delete->setEnabled(false);
}

QList<int> CrawlFilesDialog::selectedRows() const {
    QList<int> rows;
    const QModelIndexList selected = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &index : selected)
        rows << index.row();
    return rows;
}

int CrawlFilesDialog::deleteRows(const QList<int> &rows) {
    QStringList paths;
    for (int row : rows) {
        const QModelIndex index = m_model->index(row, 0);
        if (index.isValid() && !index.data(kPathRole + 1).toBool())
            paths << index.data(kPathRole).toString();
    }
    if (paths.isEmpty()) {
        if (!rows.isEmpty() && m_confirm)
            QMessageBox::information(this, tr("Delete Crawls"),
                                     tr("A crawl that is running cannot be deleted; stop it first."));
        return 0;
    }
    if (m_confirm && QMessageBox::question(
                         this, tr("Delete Crawls"),
                         tr("Delete %n crawl file(s)? Their results cannot be reopened or resumed "
                            "afterwards.",
                            nullptr, int(paths.size())),
                         QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes)
        return 0;
    int deleted = 0;
    QStringList errors;
    for (const QString &path : std::as_const(paths)) {
        QString error;
        if (CrawlFileInfo::remove(path, &error))
            ++deleted;
        else
            errors << error;
    }
    refresh();
    if (!errors.isEmpty() && m_confirm)
        QMessageBox::warning(this, tr("Delete Crawls"), errors.join(QLatin1Char('\n')));
    return deleted;
}

} // namespace ui
