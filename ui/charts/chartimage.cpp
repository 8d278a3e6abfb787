#include "charts/chartimage.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace ui {

namespace {
QString tr(const char *text) {
    return QCoreApplication::translate("ChartImage", text);
}
} // namespace

bool saveChartImage(QChartView *view, const QString &path, QString *error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    bool written = false;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("svg")) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(view->size());
        generator.setViewBox(QRect(QPoint(0, 0), view->size()));
        generator.setTitle(view->chart() ? view->chart()->title() : QString());
        QPainter painter;
        if (painter.begin(&generator)) {
            view->render(&painter);
            written = painter.end();
        }
    } else {
        const QByteArray format = suffix.toLatin1();
        written = view->grab().save(&file, format.isEmpty() ? "png" : format.constData());
    }
    if (!written) {
        file.cancelWriting();
        if (error)
            *error = tr("Cannot write %1: the image could not be encoded").arg(path);
        return false;
    }
    if (!file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void saveChartWithDialog(QChartView *view) {
    const QString png = tr("PNG image (*.png)");
    const QString svg = tr("SVG drawing (*.svg)");
    QString filter = png;
    const QString title = view->chart() ? view->chart()->title() : tr("chart");
    const QString name = title.toLower().replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".png");
    QString path =
        QFileDialog::getSaveFileName(view, tr("Save Chart"), name, png + QStringLiteral(";;") + svg, &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    QString error;
    if (!saveChartImage(view, path, &error))
        QMessageBox::warning(view, tr("Save Chart"), error);
}

} // namespace ui
