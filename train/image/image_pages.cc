#include "train/image/image_pages.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "param/quote.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {
namespace {

constexpr std::uint64_t kWordBytes = sizeof(std::int32_t);

// `prefix` split around its one integer conversion: text before, the
// conversion's flags and width, text after (each %% already one '%').
struct ConfPrefix {
  std::string before;
  bool left = false;
  bool zeros = false;
  int width = 0;
  std::string after;

  std::string With(int id) const {
    std::string number = std::to_string(id);
    const std::size_t pad = number.size() < static_cast<std::size_t>(width)
                                ? width - number.size()
                                : 0;
    if (left) {
      number.append(pad, ' ');
    } else {
      number.insert(0, pad, zeros ? '0' : ' ');
    }
    return before + number + after;
  }
};

ConfPrefix ParseConfPrefix(const std::string& prefix) {
  const auto refuse = [&](const std::string& why) {
    return DataError(
        absl::StrCat("key 'image_conf_prefix': ", QuoteShort(prefix), " ", why,
                     "; write one integer conversion such as %d or %03d "
                     "(%% for a percent sign)"),
        "image_conf_prefix");
  };
  ConfPrefix out;
  std::string* text = &out.before;
  bool converted = false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i] != '%') {
      text->push_back(prefix[i]);
      continue;
    }
    if (++i < prefix.size() && prefix[i] == '%') {
      text->push_back('%');
      continue;
    }
    if (converted) throw refuse("has more than one conversion");
    for (; i < prefix.size() && (prefix[i] == '-' || prefix[i] == '0'); ++i) {
      (prefix[i] == '-' ? out.left : out.zeros) = true;
    }
    for (; i < prefix.size() && prefix[i] >= '0' && prefix[i] <= '9'; ++i) {
      out.width = std::min(out.width * 10 + (prefix[i] - '0'), 64);
    }
    if (i >= prefix.size() || (prefix[i] != 'd' && prefix[i] != 'i')) {
      throw refuse("has a conversion that is not an integer's (%d)");
    }
    converted = true;
    text = &out.after;
  }
  if (!converted) throw refuse("has no conversion for the id");
  return out;
}

}  // namespace

std::vector<ImagePagePart> ImagePagePartsOf(const std::string& prefix,
                                            const std::string& ids) {
  const ConfPrefix parsed = ParseConfPrefix(prefix);
  const std::vector<std::string> range = absl::StrSplit(ids, '-');
  int first = 0;
  int last = 0;
  if (range.size() != 2 || !absl::SimpleAtoi(range[0], &first) ||
      !absl::SimpleAtoi(range[1], &last) || first < 0 || last < first ||
      last - first >= 100000) {
    throw DataError(
        absl::StrCat("key 'image_conf_ids': ", QuoteShort(ids),
                     " is not a range FIRST-LAST of at most 100000 ids of 0 "
                     "or more (e.g. 0-7), as cxxnet reads it"),
        "image_conf_ids");
  }
  std::vector<ImagePagePart> parts;
  for (int id = first; id <= last; ++id) {
    const std::string name = parsed.With(id);
    parts.push_back({name + ".lst", name + ".bin"});
  }
  return parts;
}

ImagePageSource::ImagePageSource(const std::vector<ImagePagePart>& parts,
                                 int label_width)
    : label_width_(label_width) {
  if (parts.empty()) {
    throw DataError("no image_list and image_bin given");
  }
  for (const ImagePagePart& part : parts) {
    OpenPart open;
    open.list = part.list;
    open.entries = ParseImageList(part.list, label_width);
    open.bin = std::make_unique<PositionedFile>(part.bin, "an image page file");
    parts_.push_back(std::move(open));
    first_of_part_.push_back(pictures_.size());
    ReadPageHeaders(static_cast<int>(parts_.size()) - 1);
  }
}

void ImagePageSource::ReadPageHeaders(int part) {
  const OpenPart& open = parts_[part];
  const PositionedFile& bin = *open.bin;
  if (bin.size() % kImagePageBytes != 0) {
    throw DataError(absl::StrFormat(
        "'%s' holds %d bytes, not a whole number of cxxnet's 64 MiB image "
        "pages (im2bin's .bin)",
        bin.path(), bin.size()));
  }
  const index_t first = pictures_.size();
  std::vector<std::int32_t> words;
  for (std::uint64_t page = 0; page < bin.size(); page += kImagePageBytes) {
    const auto fail = [&](const std::string& problem) {
      return DataError(absl::StrFormat("'%s': page %d: %s", bin.path(),
                                       page / kImagePageBytes, problem));
    };
    std::int32_t count = 0;
    std::string problem =
        bin.Read(page, reinterpret_cast<char*>(&count), kWordBytes);
    // n + 2 words of header, and at least one byte per picture.
    if (problem.empty() &&
        (count < 0 ||
         static_cast<std::uint64_t>(count) * (kWordBytes + 1) + 2 * kWordBytes >
             kImagePageBytes)) {
      problem = absl::StrFormat("it claims %d pictures", count);
    }
    if (!problem.empty()) throw fail(problem);
    words.resize(count + 2);
    problem = bin.Read(page, reinterpret_cast<char*>(words.data()),
                       words.size() * kWordBytes);
    if (!problem.empty()) throw fail(problem);
    if (words[1] != 0) {
      throw fail(
          absl::StrFormat("word 1 is %d, not 0: not an image page", words[1]));
    }
    const std::uint64_t header_bytes = words.size() * kWordBytes;
    for (std::int32_t r = 0; r < count; ++r) {
      const std::int64_t begin = words[r + 1];
      const std::int64_t end = words[r + 2];
      if (end < begin ||
          static_cast<std::uint64_t>(end) > kImagePageBytes - header_bytes) {
        throw fail(absl::StrFormat(
            "picture %d ends %d bytes before the page's end after the last "
            "ended %d bytes before it (not an image page, or a damaged one)",
            r, end, begin));
      }
      pictures_.push_back({part, page + kImagePageBytes - end,
                           static_cast<std::uint32_t>(end - begin)});
    }
  }
  const index_t pictures = pictures_.size() - first;
  if (pictures != open.entries.size()) {
    throw DataError(absl::StrFormat(
        "'%s' lists %d picture%s, '%s' holds %d: a list and its bin must "
        "come from the same im2bin run",
        open.list, open.entries.size(), open.entries.size() == 1 ? "" : "s",
        bin.path(), pictures));
  }
}

void ImagePageSource::Read(index_t index, std::string* bytes,
                           float* labels) const {
  const Picture& picture = pictures_[index];
  const OpenPart& part = parts_[picture.part];
  const ImageListEntry& entry =
      part.entries[index - first_of_part_[picture.part]];
  std::copy(entry.labels.begin(), entry.labels.end(), labels);
  bytes->resize(picture.bytes);
  const std::string problem =
      part.bin->Read(picture.offset, bytes->data(), picture.bytes);
  if (!problem.empty()) throw DataError(problem);
}

std::string ImagePageSource::Where(index_t index) const {
  const Picture& picture = pictures_[index];
  const OpenPart& part = parts_[picture.part];
  const ImageListEntry& entry =
      part.entries[index - first_of_part_[picture.part]];
  return absl::StrFormat("'%s' page %d (%s:%d %s)", part.bin->path(),
                         picture.offset / kImagePageBytes, part.list,
                         entry.line, QuoteShort(entry.path));
}

std::string ImagePageSource::Describe() const {
  std::string bins;
  for (const OpenPart& part : parts_) {
    absl::StrAppend(&bins, bins.empty() ? "" : ", ", "'", part.bin->path(),
                    "'");
  }
  return "imgbin " + bins;
}

}  // namespace train
}  // namespace umbra
