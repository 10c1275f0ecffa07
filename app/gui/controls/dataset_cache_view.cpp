// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/controls/dataset_cache_view.h"

#include "message_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QThread>

#include <memory>

namespace la {

DatasetCacheView::DatasetCacheView(QWidget* parent)
    : QWidget(parent), m_label(new QLabel(this)), m_clear(new QPushButton(tr("Clear…"), this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_clear);
    m_label->setWordWrap(true);
    m_clear->setToolTip(tr("Delete the dataset files real runs wrote; they are written again when needed"));
    m_clear->setEnabled(false);
    connect(m_clear, &QPushButton::clicked, this, &DatasetCacheView::confirmClear);
    display(m_cache, {});
}

DatasetCacheView::~DatasetCacheView() {
    // Gone before its finished() was delivered: the deleteLater() there never runs.
    if (m_worker) {
        m_worker->wait();
        delete m_worker;
    }
}

void DatasetCacheView::refresh(const QString& dir) {
    m_dir = dir;
    if (m_worker) {
        m_again = true;
        return;
    }
    startWorker(false);
}

void DatasetCacheView::clear() {
    if (m_worker || m_running)
        return;
    startWorker(true);
}

void DatasetCacheView::setRunning(bool running) {
    m_running = running;
    m_clear->setEnabled(!running && !m_worker && !m_cache.files.empty());
}

QString DatasetCacheView::text() const {
    return m_label->text();
}

void DatasetCacheView::confirmClear() {
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Clear dataset files"),
        tr("Delete %n dataset file(s) (%1) from %2?\n\nReal runs write them again when they need them.",
           nullptr, static_cast<int>(m_cache.files.size()))
            .arg(QString::fromStdString(byteSize(m_cache.bytes)), m_dir),
        QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::accepted, this, &DatasetCacheView::clear);
    box->open();
}

void DatasetCacheView::startWorker(bool clearFirst) {
    struct Result {
        DatasetCache cache;
        std::string error;
    };
    auto result = std::make_shared<Result>();
    const std::string dir = m_dir.toStdString();
    const DatasetCache listed = m_cache;
    m_clear->setEnabled(false);
    m_worker = QThread::create([result, dir, listed, clearFirst] {
        if (clearFirst)
            clearDatasetCache(listed, &result->error);
        std::string listError;
        result->cache = listDatasetCache(dir, &listError);
        if (result->error.empty())
            result->error = listError;
    });
    connect(m_worker, &QThread::finished, this, [this, result] {
        m_worker->wait();
        m_worker->deleteLater();
        m_worker = nullptr;
        display(result->cache, QString::fromStdString(result->error));
        if (std::exchange(m_again, false))
            startWorker(false);
    });
    m_worker->start();
}

void DatasetCacheView::display(const DatasetCache& cache, const QString& error) {
    m_cache = cache;
    QString text = cache.files.empty()
                       ? tr("Dataset files: none")
                       : tr("Dataset files: %1 in %n file(s)", nullptr, static_cast<int>(cache.files.size()))
                             .arg(QString::fromStdString(byteSize(cache.bytes)));
    if (!error.isEmpty())
        text += QStringLiteral("\n") + error;
    m_label->setText(text);
    m_label->setToolTip(m_dir.isEmpty() ? QString()
                                        : tr("Real runs of a dataset keep its file in %1").arg(m_dir));
    m_clear->setEnabled(!m_running && !cache.files.empty());
    emit changed();
}

} // namespace la
