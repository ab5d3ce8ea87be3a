package com.example.poet

/** A class whose primary constructor starts on the line after its name. */
public class FileSpec
private constructor(builder: Builder, private val name: String) :
  Taggable by builder,
  Annotatable {
  public fun writeTo(out: Appendable) {
    out.append(name)
  }

  public class Builder
  internal constructor(
    public val packageName: String,
  ) : Taggable.Builder<Builder> {
    public fun addType(type: TypeSpec): Builder = this

    public fun build(): FileSpec = FileSpec(this, packageName)
  }

  public class Holder<T : Any>
  private constructor(public val value: T) {
    public fun get(): T = value
  }

  public companion object {
    public fun builder(packageName: String): Builder = Builder(packageName)
  }
}

actual open class ByteString
internal actual constructor(
  internal actual val data: ByteArray,
) : Comparable<ByteString> {
  actual open fun utf8(): String = String(data)
}
