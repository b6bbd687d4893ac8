import java.nio.charset.StandardCharsets;
import java.util.Random;
/** Prints, for byte sequences made of the bytes that matter to UTF-8, each sequence in hex and the code points Java's
 *  decoder (new String(bytes, UTF_8), as URLDecoder uses) reads from it. Usage: java JavaUTF8 COUNT SEED */
public class JavaUTF8 {
  public static void main(String[] a) {
    int[] alphabet = {0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE,
                      0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xF8, 0xFF};
    Random random = new Random(Long.parseLong(a[1]));
    for (int n = 0; n < Integer.parseInt(a[0]); n++) {
      byte[] bytes = new byte[1 + random.nextInt(7)];
      StringBuilder hex = new StringBuilder();
      for (int i = 0; i < bytes.length; i++) { bytes[i] = (byte) alphabet[random.nextInt(alphabet.length)]; hex.append(String.format("%02X", bytes[i] & 0xFF)); }
      String text = new String(bytes, StandardCharsets.UTF_8);
      StringBuilder points = new StringBuilder();
      text.codePoints().forEach(c -> points.append(points.length() == 0 ? "" : " ").append(String.format("%X", c)));
      System.out.println(hex + " " + points);
    }
  }
}
