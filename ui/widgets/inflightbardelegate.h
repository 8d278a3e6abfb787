#pragma once

#include <QStyledItemDelegate>

namespace ui {

// Draws a host's in-flight count as a bar against its limit (HostsModel::InFlightRole / MaxInFlightRole),
// with the "n / limit" text on top; full bars turn amber so saturated hosts stand out.
class InFlightBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
};

} // namespace ui
