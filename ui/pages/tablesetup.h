#pragma once

#include <initializer_list>
#include <utility>

class QTableView;
class QWidget;

namespace ui {

// A table that stays cheap at a million rows: fixed row heights, interactive (never resize-to-contents)
// columns, whole-row selection.
QTableView *makeTable(QWidget *parent);
void setColumnWidths(QTableView *view, std::initializer_list<std::pair<int, int>> widths);
// Right-click a table's header to show or hide its columns.
void addColumnMenu(QTableView *view);

} // namespace ui
