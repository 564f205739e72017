// DataError: the one exception the data iterators throw for bad input (a
// missing or corrupt file, a malformed CSV row, a setting that does not fit
// the data) and for misuse (Value() before Next()).
//
// The message says what went wrong, where (the path, file:line of a CSV row)
// and, when a setting is at fault, the key, so that the chain builder can
// report it at the config line that set the key:
//
//   mnist: key 'path_img': cannot open 'x/train-images.gz': No such file or
//   directory
//
// Example:
//
//   try {
//     iterator->Next();
//   } catch (const umbra::train::DataError& e) {
//     std::cerr << e.what() << "\n";
//   }
#ifndef UMBRA_TRAIN_DATA_DATA_ERROR_H_
#define UMBRA_TRAIN_DATA_DATA_ERROR_H_

#include <stdexcept>
#include <string>

namespace umbra {
namespace train {

class DataError : public std::runtime_error {
 public:
  // `message` is the whole text of what().
  explicit DataError(const std::string& message);
  // As above, and remembers the setting the error is about (e.g. "path_img").
  DataError(const std::string& message, std::string key);

  // The key of the setting at fault; empty when the error is not about one.
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_DATA_ERROR_H_
