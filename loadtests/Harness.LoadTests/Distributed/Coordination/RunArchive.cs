using System.Formats.Tar;

namespace Harness.LoadTests.Distributed.Coordination;

/// <summary>
/// An agent's run folder as one tar stream, the way it travels to the coordinator. Only regular files and folders
/// are packed and unpacked, and no entry may leave the folder it is unpacked into.
/// </summary>
internal static class RunArchive
{
    /// <summary>Packs <paramref name="folder"/> into a temporary file (deleted on close), so an upload can be retried from the start.</summary>
    public static FileStream Pack(string folder)
    {
        var path = Path.Combine(Path.GetTempPath(), $"harness-run-{Guid.NewGuid():N}.tar");
        var file = new FileStream(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, 81920, FileOptions.DeleteOnClose);
        try
        {
            TarFile.CreateFromDirectory(folder, file, includeBaseDirectory: false);
            file.Position = 0;
            return file;
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Unpacks <paramref name="tar"/> into <paramref name="folder"/>, which must be new or empty.</summary>
    /// <exception cref="InvalidDataException">An entry is not a file or folder, or its path leaves the folder.</exception>
    public static async Task UnpackAsync(Stream tar, string folder, CancellationToken cancellationToken)
    {
        var root = Path.GetFullPath(Directory.CreateDirectory(folder).FullName) + Path.DirectorySeparatorChar;
        await using var reader = new TarReader(tar);
        while (await reader.GetNextEntryAsync(copyData: false, cancellationToken) is { } entry)
        {
            var target = Path.GetFullPath(Path.Combine(root, entry.Name));
            if (!target.StartsWith(root, StringComparison.Ordinal) && target + Path.DirectorySeparatorChar != root)
            {
                throw new InvalidDataException($"the archive's entry '{entry.Name}' leaves the run folder.");
            }

            switch (entry.EntryType)
            {
                case TarEntryType.Directory:
                    Directory.CreateDirectory(target);
                    break;
                case TarEntryType.RegularFile or TarEntryType.V7RegularFile:
                    Directory.CreateDirectory(Path.GetDirectoryName(target)!);
                    await using (var file = new FileStream(target, FileMode.CreateNew, FileAccess.Write))
                    {
                        if (entry.DataStream is { } data)
                        {
                            await data.CopyToAsync(file, cancellationToken);
                        }
                    }

                    break;
                default:
                    throw new InvalidDataException($"the archive's entry '{entry.Name}' is a {entry.EntryType}; a run folder holds only files and folders.");
            }
        }
    }
}
