#pragma once

#include <QToolButton>

namespace ui {

class ResultFilterSortModel;

// A results table's acceptance filter (issue 13): accepted, rejected, not checked (any combination, each
// with its row count), and one reject reason at a time (status, soft 404, …), counted when the menu opens.
class AcceptanceFilterButton : public QToolButton {
    Q_OBJECT
public:
    AcceptanceFilterButton(ResultFilterSortModel *model, QWidget *parent = nullptr);

private:
    void fillMenu();
    void updateText();

    ResultFilterSortModel *m_model;
};

} // namespace ui
