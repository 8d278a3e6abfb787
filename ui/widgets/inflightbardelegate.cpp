#include "widgets/inflightbardelegate.h"

#include "models/hostsmodel.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace ui {

void InFlightBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                                const QModelIndex &index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QWidget *widget = const_cast<QWidget *>(option.widget);
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background and selection

    const int inFlight = index.data(HostsModel::InFlightRole).toInt();
    const int limit = std::max(1, index.data(HostsModel::MaxInFlightRole).toInt());
    const double fraction = std::clamp(double(inFlight) / limit, 0.0, 1.0);

    const QRect track = option.rect.adjusted(3, 4, -3, -4);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    // The empty part of the bar: a shade between the cell and its text, light or dark theme alike.
    const QColor base = option.palette.color(QPalette::Base);
    const QColor ink = option.palette.color(QPalette::Text);
    painter->setBrush(QColor((base.red() * 5 + ink.red()) / 6, (base.green() * 5 + ink.green()) / 6,
                             (base.blue() * 5 + ink.blue()) / 6));
    painter->drawRoundedRect(track, 3, 3);
    if (fraction > 0) {
        QRect bar = track;
        bar.setWidth(std::max(2, int(track.width() * fraction)));
        painter->setBrush(inFlight >= limit ? QColor(0xf0, 0xa2, 0x3b) : QColor(0x5b, 0x9b, 0xd5));
        painter->drawRoundedRect(bar, 3, 3);
    }
    painter->setPen(option.palette.color(QPalette::Text));
    painter->drawText(track, Qt::AlignCenter, text);
    painter->restore();
}

} // namespace ui
