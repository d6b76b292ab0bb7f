// A long-lived Tesseract reader for the pipeline's OCR (src/pipeline/native-ocr.ts drives it).
//
//   ocr-engine <tessdata-dir> <language> [max_words=N] [name=value ...]
//
// Loads the model once, then reads pages from stdin until it closes. Native Tesseract reads a page
// in about a third of the time tesseract.js (the same engine compiled to WebAssembly) takes, and a
// process per page would spend most of that loading the model again.
//
// `max_words`: a page whose layout holds more words than N is not recognised and reads as nothing
// (confidence 0, no words, no text). Its layout is found first (a tenth of a page's time);
// recognising costs about 14 ms a word, and a page of hundreds is texture (a fabric, a screen's
// moire) taken for letters.
//
// Every integer is unsigned 32-bit little-endian.
//   in:  width, height, then width*height bytes of 8-bit grey, row by row (72 dpi, as our PNGs say)
//   out: length, then that many bytes:
//          line 1: the page's mean word confidence (0-100)
//          line 2: the number of words N
//          N lines: a word's confidence (0-100), a tab, the word as read
//          the rest: the page's text
// After loading the model it writes one frame holding "ready". Any failure ends the process with a
// message on stderr; the driver rejects what was pending and starts another.
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

static bool readAll(void *buf, size_t n) {
  return n == 0 || fread(buf, 1, n, stdin) == n;
}

static uint32_t readU32(bool &ok) {
  unsigned char b[4];
  ok = readAll(b, 4);
  return ok ? (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24) : 0;
}

static void writeFrame(const std::string &payload) {
  uint32_t n = (uint32_t)payload.size();
  unsigned char b[4] = {(unsigned char)(n & 255), (unsigned char)((n >> 8) & 255), (unsigned char)((n >> 16) & 255),
                        (unsigned char)(n >> 24)};
  fwrite(b, 1, 4, stdout);
  fwrite(payload.data(), 1, payload.size(), stdout);
  fflush(stdout);
}

// The words the page's layout holds (before any is recognised).
static long layoutWords(tesseract::TessBaseAPI &api) {
  std::unique_ptr<tesseract::PageIterator> it(api.AnalyseLayout());
  long n = 0;
  if (it) {
    do n++;
    while (it->Next(tesseract::RIL_WORD));
  }
  return n;
}

// Pages are bounded by the pipeline (at most 2000 px wide); this only refuses nonsense.
static const uint32_t MAX_SIDE = 20000;

int main(int argc, char **argv) {
  // Die with the pipeline process that started us, even when it is killed over its budget mid-page.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 0;
  if (argc < 3) {
    fprintf(stderr, "usage: ocr-engine <tessdata-dir> <language> [name=value ...]\n");
    return 2;
  }
  tesseract::TessBaseAPI api;
  if (api.Init(argv[1], argv[2], tesseract::OEM_LSTM_ONLY) != 0) {
    fprintf(stderr, "ocr-engine: cannot load the %s model from %s\n", argv[2], argv[1]);
    return 1;
  }
  long maxWords = 0;  // 0: every page recognised
  for (int i = 3; i < argc; i++) {
    const char *eq = strchr(argv[i], '=');
    if (!eq) {
      fprintf(stderr, "ocr-engine: expected name=value, got %s\n", argv[i]);
      return 2;
    }
    std::string name(argv[i], eq - argv[i]);
    if (name == "max_words") {
      maxWords = strtol(eq + 1, nullptr, 10);
      continue;
    }
    if (!api.SetVariable(name.c_str(), eq + 1)) {
      fprintf(stderr, "ocr-engine: unknown setting %s\n", name.c_str());
      return 2;
    }
  }
  writeFrame("ready");

  std::vector<unsigned char> pixels;
  for (;;) {
    bool ok = true;
    uint32_t width = readU32(ok);
    if (!ok) return 0;  // stdin closed between pages: a clean stop
    uint32_t height = readU32(ok);
    if (!ok || width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE) {
      fprintf(stderr, "ocr-engine: bad page header\n");
      return 1;
    }
    pixels.resize((size_t)width * height);
    if (!readAll(pixels.data(), pixels.size())) {
      fprintf(stderr, "ocr-engine: page cut short\n");
      return 1;
    }
    api.SetImage(pixels.data(), (int)width, (int)height, 1, (int)width);
    api.SetSourceResolution(72);
    if (maxWords > 0 && layoutWords(api) > maxWords) {
      api.Clear();
      writeFrame("0\n0\n");
      continue;
    }
    // Recognize reuses the layout just found (FindLines keeps its blocks until the next image).
    if (api.Recognize(nullptr) != 0) {
      fprintf(stderr, "ocr-engine: recognition failed\n");
      return 1;
    }
    std::string words;
    int count = 0;
    std::unique_ptr<tesseract::ResultIterator> it(api.GetIterator());
    if (it) {
      do {
        std::unique_ptr<char[]> word(it->GetUTF8Text(tesseract::RIL_WORD));
        if (!word) continue;
        char conf[32];
        snprintf(conf, sizeof conf, "%.4f\t", it->Confidence(tesseract::RIL_WORD));
        words += conf;
        words += word.get();
        words += '\n';
        count++;
      } while (it->Next(tesseract::RIL_WORD));
    }
    std::unique_ptr<char[]> text(api.GetUTF8Text());
    std::string out = std::to_string(api.MeanTextConf()) + "\n" + std::to_string(count) + "\n" + words + (text ? text.get() : "");
    writeFrame(out);
  }
}
