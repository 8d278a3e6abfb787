#pragma once

#include <QStyledItemDelegate>

namespace ui {

// A view elides every column alike; this delegate gives one column its own elide mode (error texts are
// read from the left, so they are cut on the right while URLs keep their middle cut).
class ElidingDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit ElidingDelegate(Qt::TextElideMode mode, QObject *parent = nullptr);

    Qt::TextElideMode elideMode() const { return m_mode; }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    Qt::TextElideMode m_mode;
};

} // namespace ui
