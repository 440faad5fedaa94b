namespace CacheSerializer.Workloads.Models;

/// <summary>What a <see cref="Permission"/> allows.</summary>
public enum AccessRight
{
    /// <summary>Read the entry.</summary>
    Read = 0,

    /// <summary>Read and change the entry.</summary>
    Write = 1,

    /// <summary>Read, change and delete the entry.</summary>
    Delete = 2,

    /// <summary>Everything, including sharing it.</summary>
    Owner = 3,
}
