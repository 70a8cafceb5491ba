"""table_app"""
