namespace CacheSerializer.Workloads.Models;

/// <summary>What a <see cref="FolderEntry"/> is.</summary>
public enum EntryKind
{
    /// <summary>A folder.</summary>
    Folder = 0,

    /// <summary>A text document.</summary>
    Document = 1,

    /// <summary>A spreadsheet.</summary>
    Spreadsheet = 2,

    /// <summary>An image.</summary>
    Image = 3,

    /// <summary>A video.</summary>
    Video = 4,

    /// <summary>An archive.</summary>
    Archive = 5,

    /// <summary>Anything else.</summary>
    Other = 6,
}
