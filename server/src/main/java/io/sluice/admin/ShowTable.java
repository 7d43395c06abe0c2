package io.sluice.admin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One SHOW command as data: its columns (name, type OID, extractor) in PgBouncer's order and
 * where its rows come from. Built once with the fluent methods, then read-only.
 *
 * @param <R> the row record the extractors read
 */
public final class ShowTable<R> {

    /** Reads one cell from a row; the context is there for "now" and similar. */
    @FunctionalInterface
    public interface Cell<R> {
        Object get(R row, AdminContext ctx);
    }

    /** One column: RowDescription name and type, and how to get its value. */
    public record ShowColumn<R>(String name, int typeOid, Cell<R> cell) {
        public ShowColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(cell, "cell");
        }
    }

    private final String name;
    private final boolean adminOnly;
    private final Function<AdminContext, List<R>> rows;
    private final List<ShowColumn<R>> columns = new ArrayList<>();

    private ShowTable(String name, boolean adminOnly, Function<AdminContext, List<R>> rows) {
        this.name = name;
        this.adminOnly = adminOnly;
        this.rows = rows;
    }

    /** A table readable by admin and stats users. {@code name} is the SHOW word in upper case. */
    public static <R> ShowTable<R> of(String name, Function<AdminContext, List<R>> rows) {
        return new ShowTable<>(name, false, rows);
    }

    /** A table only admin users may read (SHOW FDS). */
    public static <R> ShowTable<R> adminOnly(String name, Function<AdminContext, List<R>> rows) {
        return new ShowTable<>(name, true, rows);
    }

    public ShowTable<R> column(String columnName, int typeOid, Cell<R> cell) {
        columns.add(new ShowColumn<>(columnName, typeOid, cell));
        return this;
    }

    public ShowTable<R> text(String columnName, Function<R, String> f) {
        return column(columnName, PgType.TEXT, (r, c) -> f.apply(r));
    }

    public ShowTable<R> int4(String columnName, Function<R, Integer> f) {
        return column(columnName, PgType.INT4, (r, c) -> f.apply(r));
    }

    public ShowTable<R> int8(String columnName, Function<R, Long> f) {
        return column(columnName, PgType.INT8, (r, c) -> f.apply(r));
    }

    /** numeric column; PgBouncer prints these from unsigned 64-bit counters. */
    public ShowTable<R> numeric(String columnName, Function<R, Long> f) {
        return column(columnName, PgType.NUMERIC, (r, c) -> f.apply(r));
    }

    public String name() {
        return name;
    }

    public boolean isAdminOnly() {
        return adminOnly;
    }

    public List<ShowColumn<R>> columns() {
        return List.copyOf(columns);
    }

    /** RowDescription fields of this table. */
    public List<AdminResult.Column> header() {
        List<AdminResult.Column> out = new ArrayList<>(columns.size());
        for (ShowColumn<R> col : columns) {
            out.add(new AdminResult.Column(col.name(), col.typeOid()));
        }
        return out;
    }

    /** Reads the rows from the context and renders them; the tag is {@code SHOW}. */
    public AdminResult.RowSet render(AdminContext ctx) {
        List<R> source = rows.apply(ctx);
        List<List<Object>> out = new ArrayList<>(source.size());
        for (R row : source) {
            List<Object> cells = new ArrayList<>(columns.size());
            for (ShowColumn<R> col : columns) {
                cells.add(col.cell().get(row, ctx));
            }
            out.add(Collections.unmodifiableList(cells));
        }
        return new AdminResult.RowSet(header(), out, "SHOW");
    }
}
