// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/dialogs/dataset_picker.h"

#include "block_size.h"
#include "gui/settings/setting_words.h"
#include "input_error.h"
#include "number_text.h"
#include "tooltips.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>

#include <map>

namespace la {

namespace {

constexpr int kNameRole = Qt::UserRole + 1;
const QString kParameterSuffix = QStringLiteral(":K");

QToolButton* clearButton(QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(QStringLiteral("✕"));
    button->setToolTip(DatasetPicker::tr("Use the dataset instead"));
    button->setAutoRaise(true);
    return button;
}

QWidget* row(QWidget* parent, QWidget* a, QWidget* b) {
    auto* w = new QWidget(parent);
    auto* layout = new QHBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(a, 1);
    layout->addWidget(b);
    return w;
}

} // namespace

DatasetPicker::DatasetPicker(QWidget* parent)
    : QWidget(parent), m_dataset(new QComboBox(this)), m_description(new QLabel(this)),
      m_parameter(new QSpinBox(this)), m_patternBlocks(new QSpinBox(this)), m_scale(new QDoubleSpinBox(this)),
      m_direction(new QComboBox(this)), m_fileLabel(new QLabel(this)), m_blockListLabel(new QLabel(this)),
      m_clearFile(clearButton(this)), m_clearBlockList(clearButton(this)) {
    fillCatalog();
    m_dataset->setObjectName(QStringLiteral("dataset"));
    m_description->setObjectName(QStringLiteral("datasetDescription"));
    m_parameter->setObjectName(QStringLiteral("datasetParameter"));
    m_description->setWordWrap(true);
    // It wraps at the panel's width and never widens it: a long description (in a user's words,
    // with the query) would push the plots aside.
    m_description->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_description->setForegroundRole(QPalette::PlaceholderText);
    m_parameter->setRange(1, 1 << 20);
    m_parameter->setValue(16);
    m_parameter->setToolTip(tr("K of sparse-miss:K: every K-th block misses"));
    m_patternBlocks->setRange(0, 2'000'000'000);
    m_patternBlocks->setSingleStep(65536);
    m_patternBlocks->setSpecialValueText(tr("default"));
    m_patternBlocks->setGroupSeparatorShown(true);
    m_patternBlocks->setToolTip(tr("Relation size of a synthetic pattern, in 8 kB blocks"));
    m_scale->setRange(0.0, 1.0);
    m_scale->setDecimals(4);
    m_scale->setSingleStep(0.05);
    m_scale->setSpecialValueText(tr("preset default"));
    m_scale->setToolTip(tr("Fraction of the preset's published size"));
    m_direction->addItem(tr("forward"));
    m_direction->addItem(tr("backward (ORDER BY … DESC)"));

    auto* openFile = new QPushButton(tr("Open file…"), this);
    openFile->setToolTip(tr("Scan your own file as a relation of 8 kB blocks (real I/O, read-only)"));
    auto* openBlockList = new QPushButton(tr("Open block list…"), this);
    openBlockList->setToolTip(
        tr("Scan the blocks listed in a file (one per line, or CSV with a block column)"));
    auto* buttons = new QWidget(this);
    auto* buttonLayout = new QHBoxLayout(buttons);
    buttonLayout->setContentsMargins(0, 0, 0, 0);
    buttonLayout->addWidget(openFile);
    buttonLayout->addWidget(openBlockList);

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(settingLabel(QStringLiteral("dataset")), m_dataset);
    form->addRow(m_description);
    form->addRow(tr("K"), m_parameter);
    form->addRow(settingLabel(QStringLiteral("pattern-blocks")), m_patternBlocks);
    form->addRow(settingLabel(QStringLiteral("scale")), m_scale);
    form->addRow(settingLabel(QStringLiteral("direction")), m_direction);
    form->addRow(buttons);
    form->addRow(settingLabel(QStringLiteral("file")), row(this, m_fileLabel, m_clearFile));
    form->addRow(settingLabel(QStringLiteral("blocks")), row(this, m_blockListLabel, m_clearBlockList));

    connect(m_dataset, &QComboBox::currentIndexChanged, this, &DatasetPicker::selectionChanged);
    connect(m_parameter, &QSpinBox::valueChanged, this, &DatasetPicker::updateDescription);
    connect(m_patternBlocks, &QSpinBox::valueChanged, this, &DatasetPicker::updateDescription);
    connect(m_scale, &QDoubleSpinBox::valueChanged, this, &DatasetPicker::updateDescription);
    connect(openFile, &QPushButton::clicked, this, &DatasetPicker::openFileRequested);
    connect(openBlockList, &QPushButton::clicked, this, &DatasetPicker::openBlockListRequested);
    connect(m_clearFile, &QToolButton::clicked, this, [this] { setFile({}); });
    connect(m_clearBlockList, &QToolButton::clicked, this, [this] { setBlockList({}); });
    setFile({});
    setBlockList({});
    selectionChanged();
}

void DatasetPicker::fillCatalog() {
    // Group headers in the order the catalog first mentions them (docs/datasets.md §0 grouping).
    auto* model = new QStandardItemModel(m_dataset);
    std::vector<std::string> groups;
    std::map<std::string, std::vector<const DatasetInfo*>> members;
    for (const DatasetInfo& info : datasetCatalog()) {
        if (!members.count(info.group))
            groups.push_back(info.group);
        members[info.group].push_back(&info);
    }
    for (const std::string& group : groups) {
        auto* header = new QStandardItem(QString::fromStdString(group));
        header->setFlags(Qt::ItemIsEnabled);
        QFont font = header->font();
        font.setBold(true);
        header->setFont(font);
        model->appendRow(header);
        for (const DatasetInfo* info : members[group]) {
            auto* item = new QStandardItem(QStringLiteral("    ") + QString::fromStdString(info->name));
            item->setData(QString::fromStdString(info->name), kNameRole);
            item->setToolTip(QString::fromStdString(info->description));
            model->appendRow(item);
        }
    }
    m_dataset->setModel(model);
}

QString DatasetPicker::catalogKey() const {
    return m_dataset->currentData(kNameRole).toString();
}

QString DatasetPicker::defaultPrewarm() const {
    return m_blockList.isEmpty()
               ? tr("the dataset's own (%1)")
                     .arg(QString::fromStdString(defaultPrewarmFor(datasetName().toStdString())))
               : tr("none: a block list starts cold");
}

QString DatasetPicker::datasetName() const {
    QString key = catalogKey();
    if (key.endsWith(kParameterSuffix))
        key = key.left(key.size() - kParameterSuffix.size()) + QLatin1Char(':') +
              QString::number(m_parameter->value());
    return key;
}

void DatasetPicker::selectionChanged() {
    // A click on a group header moves to its first preset.
    if (m_dataset->currentIndex() >= 0 && catalogKey().isEmpty() &&
        m_dataset->currentIndex() + 1 < m_dataset->count()) {
        m_dataset->setCurrentIndex(m_dataset->currentIndex() + 1);
        return;
    }
    updateDescription();
}

void DatasetPicker::updateDescription() {
    const QString key = catalogKey();
    if (key.isEmpty())
        return;
    // A block list replaces the dataset whole (its visits, its size and its cache state): the
    // dataset's fields stay as they were, greyed, so clearing the list brings them back.
    const bool listed = !m_blockList.isEmpty();
    m_dataset->setEnabled(!listed);
    const DatasetInfo& info = findDataset(datasetName().toStdString());
    m_parameter->setEnabled(!listed && key.endsWith(kParameterSuffix));
    m_patternBlocks->setEnabled(!listed && info.pattern);
    m_scale->setEnabled(!listed && !info.pattern);
    if (listed) {
        m_description->setText(tr("The block list %1 replaces the dataset: its blocks in its order "
                                  "(backward reverses it), its relation up to its highest block "
                                  "unless relation-blocks sizes it, cache state cold unless prewarm "
                                  "says otherwise")
                                   .arg(QFileInfo(m_blockList).fileName()));
        emit changed();
        return;
    }
    std::uint64_t blocks = info.defaultBlocks;
    // A pattern over the user's file is sized to the file unless told otherwise, as the run sizes it.
    if (info.pattern && !m_file.isEmpty())
        blocks = static_cast<std::uint64_t>(QFileInfo(m_file).size()) / kBlockSize;
    if (info.pattern && m_patternBlocks->value() > 0)
        blocks = static_cast<std::uint64_t>(m_patternBlocks->value());
    if (!info.pattern && m_scale->value() > 0.0)
        blocks = static_cast<std::uint64_t>(static_cast<double>(info.publishedBlocks) * m_scale->value());
    m_description->setText(QStringLiteral("%1\n%2 blocks (%3), cache state %4")
                               .arg(QString::fromStdString(info.description), formatCount(blocks),
                                    formatBytes(static_cast<double>(blocks) * kBlockSize),
                                    QString::fromStdString(defaultPrewarmFor(datasetName().toStdString()))));
    emit changed();
}

void DatasetPicker::apply(RunConfig& config) const {
    config.dataset.name = datasetName().toStdString();
    config.dataset.scale = m_scale->isEnabled() ? m_scale->value() : 0.0;
    config.dataset.blocks =
        m_patternBlocks->isEnabled() ? static_cast<std::uint64_t>(m_patternBlocks->value()) : 0;
    config.dataset.direction = m_direction->currentIndex() == 1 ? Direction::Backward : Direction::Forward;
    config.blockList = m_blockList.toStdString();
    config.file = m_file.toStdString();
}

QString DatasetPicker::show(const RunConfig& config) {
    const std::string& name = config.dataset.name;
    try {
        const DatasetInfo& info = findDataset(name);
        const int index = m_dataset->findData(QString::fromStdString(info.name), kNameRole);
        if (QString::fromStdString(info.name).endsWith(kParameterSuffix)) {
            const QString text = QString::fromStdString(name);
            m_parameter->setValue(text.mid(text.indexOf(QLatin1Char(':')) + 1).toInt());
        }
        m_dataset->setCurrentIndex(index);
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    m_scale->setValue(config.dataset.scale);
    m_patternBlocks->setValue(
        static_cast<int>(std::min<std::uint64_t>(config.dataset.blocks, 2'000'000'000)));
    m_direction->setCurrentIndex(config.dataset.direction == Direction::Backward ? 1 : 0);
    setBlockList(QString::fromStdString(config.blockList));
    setFile(QString::fromStdString(config.file));
    updateDescription();
    return {};
}

void DatasetPicker::setBlockList(const QString& path) {
    showPath(m_blockList, m_blockListLabel, m_clearBlockList, path, tr("none"));
}

void DatasetPicker::setFile(const QString& path) {
    showPath(m_file, m_fileLabel, m_clearFile, path, tr("the dataset's own file"));
}

void DatasetPicker::showPath(QString& kept, QLabel* label, QToolButton* clear, const QString& path,
                             const QString& none) {
    kept = path;
    label->setText(path.isEmpty() ? none : QFileInfo(path).fileName());
    label->setToolTip(path);
    clear->setVisible(!path.isEmpty());
    updateDescription();
}

} // namespace la
