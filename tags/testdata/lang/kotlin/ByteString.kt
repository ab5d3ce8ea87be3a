package okio

class ByteString(internal val data: ByteArray) {
  val size
    @JvmName("size")
    get() = data.size
}
