using System.CommandLine;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Cli;

/// <summary>The options every scenario command has (<see cref="ScenarioSettings"/>: web servers, callers, memcached
/// servers, seed, output, short mode), declared once, with the scenario's own defaults and words.</summary>
/// <typeparam name="TSettings">The scenario's settings.</typeparam>
internal sealed class ScenarioOptions<TSettings>
    where TSettings : ScenarioSettings
{
    private readonly TSettings _defaults;
    private readonly TSettings _short;

    /// <summary>Declares the options.</summary>
    /// <param name="defaults">The documented run's settings.</param>
    /// <param name="shortMode">The short mode's settings.</param>
    /// <param name="clients">What a web server is, in this scenario.</param>
    /// <param name="callers">What each caller does, in this scenario.</param>
    /// <param name="shortDescription">What the short mode runs.</param>
    /// <param name="nodes">How keys are spread over the servers, in this scenario (default: by the client's ketama).</param>
    public ScenarioOptions(TSettings defaults, TSettings shortMode, string clients, string callers, string shortDescription, string nodes = "keys are spread by the client's ketama")
    {
        _defaults = defaults;
        _short = shortMode;
        Clients = new("--clients") { Description = clients, DefaultValueFactory = _ => defaults.Clients };
        Callers = new("--callers") { Description = callers, DefaultValueFactory = _ => defaults.CallersPerClient };
        Nodes = new("--nodes")
        {
            Description = $"Local memcached servers to start on free 127.0.0.1 ports; {nodes}.",
            DefaultValueFactory = _ => defaults.Nodes,
        };
        Seed = new("--seed") { Description = "Seed of every caller's choice of keys.", DefaultValueFactory = _ => defaults.Seed };
        Output = new("--output")
        {
            Description = "Directory for the JSON and Markdown results.",
            HelpName = "dir",
            DefaultValueFactory = _ => defaults.OutputDirectory,
        };
        Short = new("--short") { Description = $"Short mode: {shortDescription} (other options still apply)." };
    }

    /// <summary>Gets <c>--clients</c>.</summary>
    public Option<int> Clients { get; }

    /// <summary>Gets <c>--callers</c>.</summary>
    public Option<int> Callers { get; }

    /// <summary>Gets <c>--nodes</c>.</summary>
    public Option<int> Nodes { get; }

    /// <summary>Gets <c>--seed</c>.</summary>
    public Option<ulong> Seed { get; }

    /// <summary>Gets <c>--output</c>.</summary>
    public Option<string> Output { get; }

    /// <summary>Gets <c>--short</c>.</summary>
    public Option<bool> Short { get; }

    /// <summary>Returns whether an option was given on the command line (not only its default).</summary>
    /// <param name="result">The parse result.</param>
    /// <param name="option">The option.</param>
    /// <returns>Whether it was given.</returns>
    public static bool Given(ParseResult result, Option option) => result.GetResult(option) is { Implicit: false };

    /// <summary>Reads a comma-separated list of names (<c>--contenders a,b</c>), or keeps <paramref name="otherwise"/>
    /// when none was given.</summary>
    /// <param name="names">The option's value.</param>
    /// <param name="otherwise">The list when <paramref name="names"/> is empty.</param>
    /// <param name="parse">Turns one name into its value; throws for an unknown one.</param>
    /// <returns>The values, in the order given.</returns>
    /// <typeparam name="T">A value's type.</typeparam>
    public static IReadOnlyList<T> ListOr<T>(string? names, IReadOnlyList<T> otherwise, Func<string, T> parse) =>
        string.IsNullOrWhiteSpace(names) ? otherwise : [.. names.Split(',', StringSplitOptions.RemoveEmptyEntries).Select(parse)];

    /// <summary>Creates the scenario's command: the scenario's own options first, then these.</summary>
    /// <param name="name">The command's name.</param>
    /// <param name="description">What the scenario does.</param>
    /// <param name="own">The scenario's own options.</param>
    /// <param name="action">Runs the command.</param>
    /// <returns>The command.</returns>
    public Command CreateCommand(string name, string description, IEnumerable<Option> own, Func<ParseResult, CancellationToken, Task<int>> action)
    {
        var command = new Command(name, description);
        foreach (Option option in new Option[] { Clients, Callers }.Concat(own).Concat([Nodes, Seed, Output, Short]))
        {
            command.Options.Add(option);
        }

        command.SetAction(action);
        return command;
    }

    /// <summary>Returns the settings to start from: the short mode's when <c>--short</c> is given, else the defaults.</summary>
    /// <param name="result">The parse result.</param>
    /// <returns>The settings.</returns>
    public TSettings Start(ParseResult result) => result.GetValue(Short) ? _short : _defaults;

    /// <summary>Applies every one of these options given explicitly to <paramref name="settings"/>.</summary>
    /// <param name="result">The parse result.</param>
    /// <param name="settings">The settings, with the scenario's own options applied.</param>
    /// <returns>The settings (not yet validated).</returns>
    public TSettings Apply(ParseResult result, TSettings settings)
    {
        ScenarioSettings common = settings;
        return (TSettings)(common with
        {
            Clients = Given(result, Clients) ? result.GetValue(Clients) : settings.Clients,
            CallersPerClient = Given(result, Callers) ? result.GetValue(Callers) : settings.CallersPerClient,
            Nodes = Given(result, Nodes) ? result.GetValue(Nodes) : settings.Nodes,
            Seed = Given(result, Seed) ? result.GetValue(Seed) : settings.Seed,
            OutputDirectory = Given(result, Output) ? result.GetValue(Output)! : settings.OutputDirectory,
        });
    }
}
