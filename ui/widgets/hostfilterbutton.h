#pragma once

#include <QToolButton>

namespace ui {

class ResultFilterSortModel;

// A results table's host filter: busiest first, several at once, each with its row count (counted when the
// menu opens).
class HostFilterButton : public QToolButton {
    Q_OBJECT
public:
    HostFilterButton(ResultFilterSortModel *model, QWidget *parent = nullptr);

private:
    ResultFilterSortModel *m_model;
};

} // namespace ui
