#pragma once

#include <QToolButton>

namespace ui {

class ResultFilterSortModel;

// A results table's HTTP status filter: a whole class (4xx) or exact codes (404), several at once, each
// with its row count (counted when the menu opens).
class StatusFilterButton : public QToolButton {
    Q_OBJECT
public:
    StatusFilterButton(ResultFilterSortModel *model, QWidget *parent = nullptr);

private:
    ResultFilterSortModel *m_model;
};

} // namespace ui
