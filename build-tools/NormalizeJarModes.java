import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Gives every entry of the named jars the Unix mode a build under umask 022 gives it: 755 for directories, 644
 * for files. The jar, sources and Javadoc archivers copy each entry's mode from the file it was made from, and
 * those files (classes, pom.properties, the Javadoc pages) get their mode from the umask of the build; in
 * reproducible mode the archivers only clear the group and other write bits, so a build under umask 0077
 * writes {@code drwx------} and {@code -rw-------} where any other writes {@code drwxr-xr-x} and
 * {@code -rw-r--r--}. The mode is held in the central directory alone (the external attributes of each
 * entry), so this rewrites those four bytes per entry in place and leaves every other byte as it is.
 *
 * <p>The release profile runs it at {@code package}, after the three jars are written:
 * {@code java build-tools/NormalizeJarModes.java jar...}; a named jar that does not exist (a module without
 * sources or Javadoc) is passed over. Problems go to standard error and the exit status is 1.
 */
public class NormalizeJarModes {

	static final int END_SIGNATURE = 0x06054b50;

	static final int ENTRY_SIGNATURE = 0x02014b50;

	/** The end of central directory record without its comment, and the longest comment it can have. */
	static final int END_LENGTH = 22, MAX_COMMENT = 0xffff;

	static final int UNIX = 3, TYPE = 0170000, DIRECTORY = 0040000, REGULAR = 0100000;

	static final int DIRECTORY_MODE = DIRECTORY | 0755, FILE_MODE = REGULAR | 0644;

	public static void main(String[] args) {
		int failed = 0;
		for (String arg : args) {
			Path jar = Path.of(arg);
			if (!Files.isRegularFile(jar)) {
				continue;
			}
			try {
				normalize(jar);
			}
			catch (IOException | RuntimeException ex) {
				System.err.println(jar + ": " + ex.getMessage());
				failed = 1;
			}
		}
		System.exit(failed);
	}

	static void normalize(Path jar) throws IOException {
		try (FileChannel channel = FileChannel.open(jar, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
			MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
			ByteBuffer zip = mapped.order(ByteOrder.LITTLE_ENDIAN);
			int end = findEnd(zip);
			int entries = Short.toUnsignedInt(zip.getShort(end + 10));
			long directory = Integer.toUnsignedLong(zip.getInt(end + 16));
			if (entries == 0xffff || directory == 0xffffffffL) {
				throw new IOException("a Zip64 archive, which this does not read");
			}
			int at = (int) directory;
			for (int i = 0; i < entries; i++) {
				if (zip.getInt(at) != ENTRY_SIGNATURE) {
					throw new IOException("no central directory entry at offset " + at);
				}
				int nameLength = Short.toUnsignedInt(zip.getShort(at + 28));
				if ((Short.toUnsignedInt(zip.getShort(at + 4)) >>> 8) == UNIX) {
					int attributes = zip.getInt(at + 38);
					int type = (attributes >>> 16) & TYPE;
					if (type == 0) { // no type given: a name ending in a slash is a directory's
						type = (zip.get(at + 46 + nameLength - 1) == '/') ? DIRECTORY : REGULAR;
					}
					// Symbolic links and other types keep their mode.
					if ((type == DIRECTORY) || (type == REGULAR)) {
						int mode = (type == DIRECTORY) ? DIRECTORY_MODE : FILE_MODE;
						zip.putInt(at + 38, (mode << 16) | (attributes & 0xffff));
					}
				}
				at += 46 + nameLength + Short.toUnsignedInt(zip.getShort(at + 30))
						+ Short.toUnsignedInt(zip.getShort(at + 32));
			}
			mapped.force();
		}
	}

	/** The offset of the end of central directory record, found from the end as it may carry a comment. */
	static int findEnd(ByteBuffer zip) throws IOException {
		int last = zip.limit() - END_LENGTH;
		for (int at = last; (at >= 0) && (at >= last - MAX_COMMENT); at--) {
			if ((zip.getInt(at) == END_SIGNATURE) && (at + END_LENGTH + Short.toUnsignedInt(zip.getShort(at + 20))
					== zip.limit())) {
				return at;
			}
		}
		throw new IOException("not a zip archive: no end of central directory record");
	}

}
