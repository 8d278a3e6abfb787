#include "pages/tablesetup.h"

#include <QAction>
#include <QHeaderView>
#include <QMenu>
#include <QTableView>

namespace ui {

QTableView *makeTable(QWidget *parent) {
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setShowGrid(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->setVisible(false);
    // Fixed row heights and interactive (never resize-to-contents) columns keep a million rows cheap.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view->horizontalHeader()->setSectionsMovable(true);
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    return view;
}

void setColumnWidths(QTableView *view, std::initializer_list<std::pair<int, int>> widths) {
    for (const auto &[column, width] : widths)
        view->horizontalHeader()->resizeSection(column, width);
}

void addColumnMenu(QTableView *view) {
    QHeaderView *header = view->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(header, &QWidget::customContextMenuRequested, view, [view, header](const QPoint &pos) {
        QMenu menu;
        QAbstractItemModel *model = view->model();
        for (int column = 0; column < model->columnCount(); ++column) {
            QAction *toggle = menu.addAction(model->headerData(column, Qt::Horizontal).toString());
            toggle->setCheckable(true);
            toggle->setChecked(!view->isColumnHidden(column));
            QObject::connect(toggle, &QAction::toggled, view,
                             [view, column](bool on) { view->setColumnHidden(column, !on); });
        }
        menu.exec(header->viewport()->mapToGlobal(pos));
    });
}

} // namespace ui
